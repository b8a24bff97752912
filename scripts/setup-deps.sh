#!/usr/bin/env bash
# Installs the Debian packages techo needs, only when something is missing.
# Called by `make build`, `make test`, `make demo`, `make bench` and `make references` (which
# pass the extra packages they need as "package:file" arguments); safe to run again.
set -euo pipefail

# Debian package -> a file it provides (checked instead of asking dpkg, which is slower).
need=(
    "pkg-config:/usr/bin/pkg-config"
    "libpng-dev:/usr/include/png.h"
    "libjpeg-dev:/usr/include/jpeglib.h"
    "libdeflate-dev:/usr/include/libdeflate.h"
    "libssl-dev:/usr/include/openssl/evp.h"
    "libmicrohttpd-dev:/usr/include/microhttpd.h"
    # The QR code of the editor's URL that `techo serve --lan` prints, and the tool its test reads it back with.
    "libqrencode-dev:/usr/include/qrencode.h"
    "zbar-tools:/usr/bin/zbarimg"
    # HTTPS (`techo serve --tls-cert`): the tests make their certificates and talk to the server with openssl.
    "openssl:/usr/bin/openssl"
    "libfreetype-dev:/usr/include/freetype2/ft2build.h"
    "libharfbuzz-dev:/usr/include/harfbuzz/hb-ft.h"
    "libfontconfig-dev:/usr/include/fontconfig/fontconfig.h"
    "fontconfig:/usr/bin/fc-list"
    "fonts-dejavu-core:/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
    "fonts-dejavu-extra:/usr/share/fonts/truetype/dejavu/DejaVuSans-Oblique.ttf"
    "fonts-noto-cjk:/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc"
    "fonts-noto-color-emoji:/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf"
    "fonts-noto-core:/usr/share/fonts/truetype/noto/NotoSans-Regular.ttf"
    "libc6-dev:/usr/include/stdio.h"
    # Formats from devices (docs/contract.md §12): HEIC/AVIF with its HEVC and AV1 codecs, WebP, SVG.
    "libheif-dev:/usr/include/x86_64-linux-gnu/libheif/heif.h"
    "libde265-dev:/usr/include/libde265/de265.h"
    "libwebp-dev:/usr/include/webp/demux.h"
    "librsvg2-dev:/usr/include/librsvg-2.0/librsvg/rsvg.h"
    # The vector PDF (docs/decisions/pdf.md): cairo's PDF surface, and the tools its tests read it with.
    "libcairo2-dev:/usr/include/cairo/cairo-pdf.h"
    "poppler-utils:/usr/bin/pdftoppm"
    "qpdf:/usr/bin/qpdf"
    # The editor's browser tests (make test) drive headless Chromium.
    "chromium:/usr/bin/chromium"
    # ... and the same journeys in WebKit (WebKitWebDriver starting WebKitGTK's MiniBrowser on an
    # Xvfb display) and in Firefox (its built-in WebDriver BiDi, headless).
    "webkit2gtk-driver:/usr/bin/WebKitWebDriver"
    "libwebkit2gtk-4.1-0:/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser"
    "xvfb:/usr/bin/Xvfb"
    "firefox-esr:/usr/bin/firefox-esr"
    # The AVIF leak regression (docs/fuzzing.md) replays under valgrind's memcheck, from a copy of
    # techo-fuzz whose debug information objcopy removed (valgrind 3.19 cannot read DWARF 5).
    "valgrind:/usr/bin/valgrind"
    "binutils:/usr/bin/objcopy"
    # CrashSafetyTests kills techo at each of its file steps with strace's fault injection.
    "strace:/usr/bin/strace"
)
for extra in "$@"; do need+=("$extra"); done

missing=()
for entry in "${need[@]}"; do
    pkg=${entry%%:*} file=${entry#*:}
    [ -e "$file" ] || missing+=("$pkg")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "techo setup: installing ${missing[*]}" >&2
sudo=()
if [ "$(id -u)" != 0 ]; then
    command -v sudo >/dev/null || { echo "techo setup: need root (or sudo) to install: ${missing[*]}" >&2; exit 1; }
    sudo=(sudo)
fi
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -qq >&2
"${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
command -v fc-cache >/dev/null && fc-cache -s >/dev/null 2>&1 || true
