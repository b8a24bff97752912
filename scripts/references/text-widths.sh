#!/usr/bin/env bash
# Measures the reference ink widths of Tests/TechoTextTests/References/widths/sc-48px.tsv with
# the real tools: hb-view (Debian libharfbuzz-bin; face 2 of NotoSansCJK-Regular.ttc is Noto
# Sans CJK SC) and pango-view (Debian pango1.0-tools; 36 pt at 96 dpi is 48 px). Neither tool
# is needed by the tests, only to remake the table, which `make references` does; or alone:
#   bash scripts/references/text-widths.sh
set -euo pipefail
font=/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc
here="$(cd "$(dirname "$0")" && pwd)"
out="$here/../../Tests/TechoTextTests/References/widths/sc-48px.tsv"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
lines=("京都の旅 · Kyoto Day 1" "の・K" "の · K" "京 · 都" "Kyoto · Day" "旅の記録、2026年4月3日（金）" "ひらがな「かぎ」! 12:30")
{
  echo "# text<TAB>hb-view ink width<TAB>pango-view ink width (px), Noto Sans CJK SC at 48 px"
  echo "# made by scripts/references/text-widths.sh with $(hb-view --version | head -1), $(pango-view --version)"
  for s in "${lines[@]}"; do
    hb-view --font-size=48 --face-index=2 --margin=20 -o "$tmp/hb.png" "$font" "$s"
    LC_ALL=C.UTF-8 pango-view -q --font="Noto Sans CJK SC 36" --dpi=96 --margin=20 -o "$tmp/pango.png" --text "$s"
    hb=$(python3 "$here/png-ink-box.py" "$tmp/hb.png" | cut -d' ' -f3)
    pango=$(python3 "$here/png-ink-box.py" "$tmp/pango.png" | cut -d' ' -f3)
    printf '%s\t%s\t%s\n' "$s" "$hb" "$pango"
  done
} > "$out"
echo "$(hb-view --version | head -1), $(pango-view --version): measured ${#lines[@]} lines into Tests/TechoTextTests/References/widths/sc-48px.tsv"
