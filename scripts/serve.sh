#!/usr/bin/env bash
# make serve: opens the demo journal (out/demo/kyoto.techo, made by make demo's build) in the
# live editor. The journal is built only when it is missing, so edits made in the editor stay
# between runs (make demo builds it afresh). Ctrl+C stops the server.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=$1
port=${2:-7373}
journal=out/demo/kyoto.techo
[ -d "$journal" ] || bash scripts/demo.sh "$bin"
echo "make serve: serving $journal (Ctrl+C stops)" >&2
# The first line techo serve prints is the editor's URL with its token: open it in a browser.
"$bin/techo" serve "$journal" --port "$port" | {
    IFS= read -r url
    echo "make serve: the editor is at $url" >&2
    if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ] && command -v xdg-open >/dev/null; then
        xdg-open "$url" >/dev/null 2>&1 || true
    fi
    cat
}
