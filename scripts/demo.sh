#!/usr/bin/env bash
# make demo: paints the demo's pictures (procedurally, no downloads), builds the demo journal
# from Resources/demo/kyoto.json and exports its pages to out/demo/.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=$1
"$bin/techo-assets" demo Resources/demo/assets >&2
rm -rf out/demo
mkdir -p out/demo
start=$(date +%s.%N)
"$bin/techo" build Resources/demo/kyoto.json --journal out/demo/kyoto.techo -o out/demo
end=$(date +%s.%N)
echo "make demo: rendered the demo journal in $(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.2f", b - a }') s; pages above, journal in out/demo/kyoto.techo" >&2
