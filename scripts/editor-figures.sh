#!/usr/bin/env bash
# The editor's hand-speed figures, measured in headless Chromium with real input by the browser
# tests that print them (docs/editor.md, "Figures"), run here one after another and summed up:
#   pointer to screen   from each pen / finger sample to the first frame that shows it (median,
#                       p95 over 1,600 samples of a long stroke, four a frame, on an A5 page at
#                       1024x1366 and two device pixels per CSS pixel, the CPU slowed 4x)
#   text box to typing  from the click that places a new text box to its first typed character
#                       on screen (median of 7, 1440x900)
#   release to render   from a sticker drag's release to the new render on screen, on the demo's
#                       first page and on a crowded page (50 stickers, 5,000 strokes)
#   sticker tray        the tray's first open: every built-in pack's list and thumbnails asked
#                       for to every thumbnail decoded (no idle prefetch counted), at 1440x900,
#                       1024x1366 and 390x844, and the requests it took
#   page thumbnails     a 30-page journal: the list's first show to every row on screen
#                       having its thumbnail (1440x900)
# Usage: scripts/editor-figures.sh   (after `swift build -c release -Xswiftc -enable-testing --build-tests`)
set -euo pipefail
cd "$(dirname "$0")/.."
flags=(-c release -Xswiftc -enable-testing)
log=$(mktemp)
trap 'rm -f "$log"' EXIT
filter='theLiveStrokeIsOnScreenWithinAFrameOfItsEvent|placingABoxToTheFirstTypedCharacterOnScreen|releaseToRenderIsMeasuredOnTheCrowdedPage|theTrayFirstOpenIsOneAtlasAndIsTimed|thumbnailsOfAThirtyPageJournalAreLazyAndTimed'
if ! swift test "${flags[@]}" --skip-build --disable-xctest --filter "$filter" >"$log" 2>&1; then
    echo "editor figures: a measuring test failed:" >&2
    grep -E "✘|error" "$log" | cut -c1-300 >&2 || true
    exit 1
fi
echo "== editor (headless Chromium, real input; scripts/editor-figures.sh)"
grep -E "^pointer to screen|^new text box to the first typed character|^release to render on [^,]*: median|^sticker tray first open|^sticker tray search|^page thumbnails" "$log" | sed 's/^/  /'
