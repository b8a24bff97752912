#!/usr/bin/env bash
# Re-makes the encoded device-format fixtures from source/ with the real encoders (Debian 12:
# libheif-examples 1.15.1 with x265 3.5 and aom 3.6.0, webp 1.2.4). The outputs are committed;
# tests never run this. The SVGs are hand-written and not made here; the oriented HEICs come
# from `techo-assets heic-fixtures` (libheif's encoder API, which can write irot/imir boxes).
set -euo pipefail
cd "$(dirname "$0")"
python3 make-sources.py source
s=source
heif-enc -q 90 $s/quad.png -o quad.heic
heif-enc -L -p chroma=444 --matrix_coefficients=0 $s/quad.png -o quad-lossless.heic
heif-enc -q 90 $s/quad-alpha.png -o quad-alpha.heic
heif-enc -q 90 -b 10 $s/quad16.png -o quad-10bit.heic
heif-enc -A -q 90 $s/quad.png -o quad.avif
heif-enc -A -q 90 $s/quad-alpha.png -o quad-alpha.avif
cwebp -quiet -q 90 $s/quad.png -o quad-lossy.webp
cwebp -quiet -lossless $s/quad.png -o quad-lossless.webp
cwebp -quiet -q 90 -alpha_q 100 $s/quad-alpha.png -o quad-alpha.webp
cwebp -quiet -lossless -exact $s/quad-alpha.png -o quad-alpha-lossless.webp
img2webp -lossless -d 200 $s/quad.png $s/frame2.png -o anim.webp
