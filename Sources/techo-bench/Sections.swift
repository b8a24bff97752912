// The benchmark sections, in the order they print. Each area adds its function here.
let benchSections: [(String, () -> Void)] = [
    ("startup", startupBench),
    ("codecs", codecBench),
    ("raster", rasterBench),
    ("text", textBench),
    ("render", renderBench),
    ("model", modelBench),
    ("move", moveBench),
    ("page", pageBench),
    ("pages200", manyPagesBench),
    ("preview", previewBench),
    ("encode", encodeBench),
    ("pngsettings", pngSettingsBench),
    ("pdf", pdfBench),
    ("heic", heicBench),
]
