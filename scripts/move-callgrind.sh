#!/usr/bin/env bash
# Instruction counts (valgrind --tool=callgrind) of one sticker move on the crowded page of
# `techo-bench move`: `techo --version`, and `techo gesture J p1 image-3 --pan 5,3` on the
# journal made afresh (`techo-bench --crowded-journal`, deterministic) after one move. Unlike wall
# or CPU time on a shared machine, the counts repeat from run to run, so before/after figures of a change
# are taken with this.
# Usage: scripts/move-callgrind.sh BIN_DIR   (BIN_DIR holds techo and techo-bench)
#   CALLGRIND_OUT=FILE keeps the gesture's profile (read it with callgrind_annotate).
# Needs valgrind and objcopy (Debian valgrind, binutils). valgrind 3.19 cannot read the DWARF 5
# debug info swiftc writes, so the binary is profiled from a copy without it (function names stay).
set -euo pipefail
bin=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
objcopy --strip-debug "$bin/techo" "$work/techo"
"$bin/techo-bench" --crowded-journal "$work/j.techo"
# One move first, as in `techo-bench move` (each run there follows another).
"$work/techo" gesture "$work/j.techo" p1 image-3 --pan 1,1 >/dev/null
count() {
    local out=$1
    shift
    valgrind --tool=callgrind --callgrind-out-file="$out" "$@" 2>&1 >/dev/null | sed -nE 's/.*Collected : ([0-9]+).*/\1/p'
}
version=$(count "$work/version.cg" "$work/techo" --version)
gesture=$(count "$work/gesture.cg" "$work/techo" gesture "$work/j.techo" p1 image-3 --pan 5,3)
if [ -n "${CALLGRIND_OUT:-}" ]; then cp "$work/gesture.cg" "$CALLGRIND_OUT"; fi
printf 'techo --version:          %15s Ir\n' "$version"
printf 'techo gesture --pan 5,3:  %15s Ir (%s more)\n' "$gesture" "$((gesture - version))"
