#!/usr/bin/env bash
# The editor's render path, measured through HTTP: builds the demo journal in a temp folder,
# starts `techo serve` on it, and times with curl (median of RUNS):
#   hit   GET /api/pages/ID/render at a 1000 px tall display size, the page unchanged (cached)
#   miss  the same GET right after a one-pixel pan of an element (always onward, so the page is
#         never one the cache has seen: a new render and PNG encode)
#   edit  the POST of that pan (the gesture's commit: transaction, history step, revision)
# and, for comparison, the renderer alone: `techo export` of the same page at the same scale
# with TECHO_TIMINGS=1 (render + encode inside the process).
# Usage: scripts/serve-latency.sh BIN_DIR [RUNS]   (BIN_DIR holds techo and techo-assets)
set -euo pipefail
cd "$(dirname "$0")/.."
bin=$1
runs=${2:-15}
work=$(mktemp -d)
server=""
cleanup() { [ -n "$server" ] && kill "$server" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT

"$bin/techo-assets" demo Resources/demo/assets >/dev/null 2>&1
"$bin/techo" build Resources/demo/kyoto.json --journal "$work/kyoto.techo" -o "$work/pages" >/dev/null
page=$("$bin/techo" page list "$work/kyoto.techo" --json | python3 -c 'import json,sys; print(json.load(sys.stdin)[0]["id"])')
"$bin/techo" serve "$work/kyoto.techo" --port 0 >"$work/url" 2>"$work/log" &
server=$!
for _ in $(seq 50); do [ -s "$work/url" ] && break; sleep 0.1; done
url=$(head -1 "$work/url")
base=${url%%/?token=*}
token=${url##*token=}
hdr="X-Techo-Token: $token"
info=$(curl -sf -H "$hdr" "$base/api/pages/$page")
read -r height element < <(python3 -c 'import json,sys; d=json.loads(sys.argv[1]); print(d["height"], [e["id"] for e in d["elements"] if e["type"] != "ink"][0])' "$info")
scale=$(python3 -c "print(1000 / $height)")
render="$base/api/pages/$page/render?scale=$scale"

t() { curl -sf -o /dev/null -w '%{time_total}\n' "$@"; }
curl -sf -o /dev/null -H "$hdr" "$render"  # warm: decoded images and glyphs cached
hit=() miss=() edit=() inside=()
for i in $(seq "$runs"); do
    edit+=("$(t -H "$hdr" -H 'Content-Type: application/json' \
        -d "{\"element\":\"$element\",\"events\":[{\"gesture\":\"pan\",\"state\":\"changed\",\"translation\":[1,0]}]}" \
        "$base/api/pages/$page/gesture")")
    miss+=("$(t -H "$hdr" -D "$work/head" "$render")")
    # The server's own render and encode time for that request (its Server-Timing header).
    inside+=("$(tr -d '\r' <"$work/head" | sed -nE 's/^Server-Timing: render;dur=([0-9.]+), encode;dur=([0-9.]+)/\1 \2/p' | awk '{ print ($1 + $2) / 1000 }')")
    hit+=("$(t -H "$hdr" "$render")")
done
median() { printf '%s\n' "$@" | sort -g | awk '{ a[NR] = $1 } END { printf "%.1f ms", 1000 * a[int((NR + 1) / 2)] }'; }
echo "serve latency: demo page $page, ${height} px tall shown 1000 px tall (scale $scale), median of $runs"
echo "  GET render, cache hit:            $(median "${hit[@]}")"
echo "  GET render after an edit (miss):  $(median "${miss[@]}")"
echo "    of which render + PNG encode:   $(median "${inside[@]}") (the rest is HTTP, reading the page, the cache)"
echo "  POST gesture (commit, one step):  $(median "${edit[@]}")"
direct=()
for _ in $(seq 5); do
    line=$(TECHO_TIMINGS=1 TECHO_JOBS=1 "$bin/techo" export "$work/kyoto.techo" --page "$page" --scale "$scale" -o "$work/direct.png" 2>&1 >/dev/null | grep timings)
    direct+=("$(echo "$line" | sed -E 's/.*render ([0-9.]+) s.*encode ([0-9.]+) s.*/\1 \2/' | awk '{ print $1 + $2 }')")
done
echo "  techo export render+encode alone: $(median "${direct[@]}") (median of 5, in one process each: cold caches)"
