// swift-tools-version:6.0
// techo: a journaling page compositor. Data flows
//   manifest / CLI → TechoModel → storage;  TechoModel → TechoRender → TechoRaster → TechoCodecs → file.
import PackageDescription

let package = Package(
    name: "techo",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "techo", targets: ["techo"]),
        // techo as a library: open or create journals, edit, render (Sources/Techo, docs/library.md).
        .library(name: "Techo", targets: ["Techo"]),
    ],
    targets: [
        // System libraries, found with pkg-config (scripts/setup-deps.sh installs them).
        .systemLibrary(name: "CLibPNG", pkgConfig: "libpng", providers: [.apt(["libpng-dev"])]),
        .systemLibrary(name: "CLibJPEG", pkgConfig: "libjpeg", providers: [.apt(["libjpeg-dev"])]),
        .systemLibrary(name: "CFreeType", pkgConfig: "freetype2", providers: [.apt(["libfreetype-dev"])]),
        .systemLibrary(name: "CHarfBuzz", pkgConfig: "harfbuzz", providers: [.apt(["libharfbuzz-dev"])]),
        .systemLibrary(name: "CFontconfig", pkgConfig: "fontconfig", providers: [.apt(["libfontconfig-dev"])]),
        .systemLibrary(name: "CLibDeflate", pkgConfig: "libdeflate", providers: [.apt(["libdeflate-dev"])]),
        // SHA-256 content addresses (docs/decisions/storage.md).
        .systemLibrary(name: "CLibCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        // Formats from devices (PRODUCT.md §12): HEIC/AVIF, WebP (with the demuxer for animations), SVG.
        .systemLibrary(name: "CLibHeif", pkgConfig: "libheif", providers: [.apt(["libheif-dev"])]),
        .systemLibrary(name: "CLibWebP", pkgConfig: "libwebpdemux", providers: [.apt(["libwebp-dev"])]),
        .systemLibrary(name: "CRsvg", pkgConfig: "librsvg-2.0", providers: [.apt(["librsvg2-dev"])]),
        .systemLibrary(name: "CLibMicroHTTPD", pkgConfig: "libmicrohttpd", providers: [.apt(["libmicrohttpd-dev"])]),

        // The only C we write: whole libpng / libjpeg sessions, so setjmp/longjmp never crosses Swift.
        .target(name: "CTechoShims", dependencies: ["CLibPNG", "CLibJPEG"]),

        .target(name: "TechoGeometry"),
        .target(name: "TechoRaster", dependencies: ["TechoGeometry"]),
        .target(name: "TechoCodecs", dependencies: ["TechoRaster", "CTechoShims", "CLibDeflate", "CLibHeif", "CLibWebP", "CRsvg"]),
        .target(name: "TechoText", dependencies: ["TechoGeometry", "TechoRaster", "CFreeType", "CHarfBuzz", "CFontconfig"]),
        .target(name: "TechoModel", dependencies: ["TechoGeometry", "CLibCrypto"]),
        .target(name: "TechoRender", dependencies: ["TechoModel", "TechoGeometry", "TechoRaster", "TechoCodecs", "TechoText"]),
        .target(name: "TechoCommands", dependencies: ["TechoGeometry", "TechoModel", "TechoRender", "TechoCodecs", "TechoText"]),
        // techo serve: the editor's HTTP server, a thin layer over the same operations as the CLI.
        .target(
            name: "TechoServer", dependencies: ["CLibMicroHTTPD", "TechoCommands", "TechoModel", "TechoRender", "TechoCodecs", "TechoGeometry", "TechoText"]),
        .executableTarget(name: "techo", dependencies: ["TechoCommands", "TechoServer"]),
        .target(name: "Techo", dependencies: ["TechoGeometry", "TechoModel", "TechoRender", "TechoCodecs", "TechoRaster"]),
        .executableTarget(name: "techo-assets", dependencies: ["TechoCodecs", "TechoRaster", "CLibHeif", "CLibWebP"], path: "Sources/techo-assets"),
        // Seeded mutation fuzzers for the decoders and text layout (make fuzz, docs/fuzzing.md).
        .target(
            name: "TechoFuzzTargets", dependencies: ["TechoModel", "TechoGeometry", "TechoCodecs", "TechoText", "TechoRaster", "TechoCommands", "TechoServer"]),
        .executableTarget(name: "techo-fuzz", dependencies: ["TechoFuzzTargets", "TechoGeometry"]),
        .executableTarget(
            name: "techo-bench", dependencies: ["Techo", "TechoRender", "TechoCodecs", "TechoRaster", "TechoText", "TechoModel", "TechoGeometry"],
            path: "Sources/techo-bench"),

        .target(name: "TechoTestSupport", dependencies: ["TechoRaster", "TechoCodecs"], path: "Tests/TechoTestSupport"),
        .testTarget(name: "TechoGeometryTests", dependencies: ["TechoGeometry"]),
        // Fixtures and reference images are found through #filePath, so a clone runs its tests in place.
        .testTarget(
            name: "TechoRasterTests", dependencies: ["TechoRaster", "TechoGeometry", "TechoTestSupport"],
            exclude: ["Fixtures", "References"]),
        .testTarget(name: "TechoCodecsTests", dependencies: ["TechoCodecs", "TechoGeometry", "TechoTestSupport"], exclude: ["Fixtures"]),
        .testTarget(name: "TechoTextTests", dependencies: ["TechoText", "TechoTestSupport"], exclude: ["References"]),
        .testTarget(name: "TechoModelTests", dependencies: ["TechoModel", "TechoTestSupport"], exclude: ["Fixtures"]),
        .testTarget(name: "TechoRenderTests", dependencies: ["TechoRender", "TechoTestSupport"]),
        // The library's compiled example: it imports Techo and nothing else of techo's.
        .testTarget(name: "TechoLibraryTests", dependencies: ["Techo"]),
        .testTarget(name: "TechoServerTests", dependencies: ["TechoServer", "TechoCommands", "TechoModel", "TechoCodecs", "TechoRaster", "TechoTestSupport"]),
        .testTarget(name: "TechoCommandsTests", dependencies: ["TechoCommands", "TechoModel", "TechoCodecs", "TechoRaster", "TechoTestSupport"]),
        // The editor page in headless Chromium, with real input events, against `techo serve`.
        .testTarget(name: "TechoEditorTests", dependencies: ["TechoCodecs", "TechoRaster", "TechoTestSupport"], exclude: ["Fixtures"]),
    ],
    swiftLanguageModes: [.v5]
)

// The libFuzzer entry points exist only in the instrumented build `make fuzz` makes: libFuzzer
// supplies `main`, so an ordinary build could not link them.
if Context.environment["TECHO_LIBFUZZER"] != nil {
    package.targets.append(.executableTarget(name: "techo-libfuzzer", dependencies: ["TechoFuzzTargets", "TechoGeometry"]))
}
