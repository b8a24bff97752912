#!/usr/bin/env bash
# Renders the demo journal. Grows with the renderer; for now it shows the binary works.
set -euo pipefail
techo=$1
"$techo" --version
