#!/usr/bin/env bash
# make install: scripts/install.sh BIN_DIR PREFIX copies BIN_DIR/techo (a built binary) to
# $DESTDIR$PREFIX/bin/techo. That one file is all of techo: the editor's page and the built-in
# templates are inside it (docs/decisions/install.md), so nothing goes to share/.
# DESTDIR (default empty) stages the install under another root, as packagers do.
set -euo pipefail
if [ $# -ne 2 ]; then
    echo "usage: scripts/install.sh BIN_DIR PREFIX   (DESTDIR=... in the environment stages it)" >&2
    exit 64
fi
bin=$1 prefix=$2 destdir=${DESTDIR:-}
case $prefix in
/*) ;;
*) echo "install.sh: error: PREFIX must be an absolute path, got '$prefix'" >&2; exit 64 ;;
esac
if [ ! -x "$bin/techo" ]; then
    echo "install.sh: error: $bin/techo: no built techo binary there (make build makes one)" >&2
    exit 66
fi
target="$destdir$prefix/bin"
install -d "$target"
# Copied beside the target and renamed over it, so a techo that is running (a serve) keeps its
# old file and no one ever runs a half-written binary.
install -m 0755 "$bin/techo" "$target/.techo.new.$$"
mv -f "$target/.techo.new.$$" "$target/techo"
echo "make install: installed $target/techo"
