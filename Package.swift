// swift-tools-version:6.0
// techo: a journaling page compositor. Data flows
//   manifest / CLI → TechoModel → storage;  TechoModel → TechoRender → TechoRaster → TechoCodecs → file.
import PackageDescription

/// The instrumented build `make fuzz` makes (see the end of this file).
let fuzzBuild = Context.environment["TECHO_LIBFUZZER"] != nil

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
        // Formats from devices (docs/contract.md §12): HEIC/AVIF, WebP (with the demuxer for animations), SVG.
        .systemLibrary(name: "CLibHeif", pkgConfig: "libheif", providers: [.apt(["libheif-dev"])]),
        .systemLibrary(name: "CLibWebP", pkgConfig: "libwebpdemux", providers: [.apt(["libwebp-dev"])]),
        .systemLibrary(name: "CRsvg", pkgConfig: "librsvg-2.0", providers: [.apt(["librsvg2-dev"])]),
        // The vector PDF (docs/decisions/pdf.md): cairo's PDF surface, with FreeType faces for its fonts.
        .systemLibrary(name: "CCairo", pkgConfig: "cairo", providers: [.apt(["libcairo2-dev"])]),
        // HarfBuzz's subsetter, which makes each text font of the vector PDF small before cairo embeds it.
        .systemLibrary(name: "CHarfBuzzSubset", pkgConfig: "harfbuzz-subset", providers: [.apt(["libharfbuzz-dev"])]),
        .systemLibrary(name: "CLibMicroHTTPD", pkgConfig: "libmicrohttpd", providers: [.apt(["libmicrohttpd-dev"])]),
        // HEVC, for the tiles of a phone's HEIC decoded straight to the size they are drawn (libheif decodes through it too).
        .systemLibrary(name: "CLibDe265", pkgConfig: "libde265", providers: [.apt(["libde265-dev"])]),
        // The QR code `techo serve --lan` prints, for a tablet or phone to open the editor with.
        .systemLibrary(name: "CLibQREncode", pkgConfig: "libqrencode", providers: [.apt(["libqrencode-dev"])]),

        // Every library above is opened on first use, not at start-up (docs/decisions/startup.md): CTechoLazy
        // defines each function techo calls with the library's own prototype. The targets above give the
        // headers; nothing references the libraries themselves, so the linker drops what pkg-config adds (lazy.c).
        .target(
            name: "CTechoLazy",
            dependencies: [
                "CRsvg", "CCairo", "CHarfBuzzSubset", "CLibHeif", "CLibWebP", "CLibMicroHTTPD", "CFreeType", "CHarfBuzz", "CFontconfig", "CLibCrypto",
                "CLibPNG", "CLibJPEG", "CLibDeflate", "CLibQREncode", "CLibDe265",
            ], exclude: ["symbols"]),
        // The only C we write: whole libpng / libjpeg sessions, so setjmp/longjmp never crosses Swift.
        .target(name: "CTechoShims", dependencies: ["CLibPNG", "CLibJPEG", "CTechoLazy"]),

        // The files of Resources/ that techo carries in its binary (docs/decisions/install.md): the
        // EmbedResources plugin runs techo-embed at build time to write them as Swift source.
        .executableTarget(name: "techo-embed", path: "Sources/techo-embed"),
        .plugin(name: "EmbedResources", capability: .buildTool(), dependencies: ["techo-embed"]),
        // The instrumented build `make fuzz` makes links every executable, this plugin's tool too,
        // with libFuzzer's `main`, so there the resources are read from disk (TECHO_RESOURCES).
        .target(
            name: "TechoResources", exclude: ["Resources"],
            swiftSettings: fuzzBuild ? [.define("TECHO_RESOURCES_ON_DISK")] : [], plugins: fuzzBuild ? [] : ["EmbedResources"]),

        .target(name: "TechoGeometry"),
        // The range of every numeric field, in one table the model, the text engine and every front end read.
        .target(name: "TechoRules"),
        .target(name: "TechoRaster", dependencies: ["TechoGeometry"]),
        .target(
            name: "TechoCodecs", dependencies: ["TechoRaster", "CTechoShims", "CTechoLazy", "CLibDeflate", "CLibHeif", "CLibDe265", "CLibWebP", "CRsvg"]),
        .target(name: "TechoText", dependencies: ["TechoGeometry", "TechoRaster", "TechoRules", "CFreeType", "CHarfBuzz", "CFontconfig", "CTechoLazy"]),
        .target(name: "TechoModel", dependencies: ["TechoGeometry", "TechoRules", "CLibCrypto", "CTechoLazy"]),
        .target(name: "TechoRender", dependencies: ["TechoModel", "TechoGeometry", "TechoRaster", "TechoCodecs", "TechoText"]),
        // Whole pages as the files export writes: PNG, JPEG, PDF.
        .target(
            name: "TechoExport",
            dependencies: [
                "TechoModel", "TechoRender", "TechoCodecs", "TechoRaster", "TechoGeometry", "TechoText", "CCairo", "CRsvg", "CFreeType", "CHarfBuzzSubset",
                "CLibDeflate", "CTechoLazy",
            ]),
        // The only way to change a journal: typed operations, one error type (docs/decisions/architecture.md).
        .target(name: "TechoEditing", dependencies: ["TechoModel", "TechoRender", "TechoCodecs", "TechoText", "TechoExport", "TechoResources"]),
        // The front ends decode their input into TechoEditing's operations and never import one another.
        .target(
            name: "TechoCommands", dependencies: ["TechoGeometry", "TechoModel", "TechoRender", "TechoCodecs", "TechoText", "TechoEditing", "TechoExport"]),
        // techo serve: the editor's HTTP server.
        .target(
            name: "TechoServer",
            dependencies: [
                "CLibMicroHTTPD", "CLibQREncode", "CTechoLazy", "TechoEditing", "TechoExport", "TechoModel", "TechoRender", "TechoCodecs", "TechoGeometry",
                "TechoText", "TechoResources",
            ]),
        // The executable wires `serve` (the server) into the CLI.
        .executableTarget(name: "techo", dependencies: ["TechoCommands", "TechoServer", "TechoEditing", "TechoModel"]),
        .target(name: "Techo", dependencies: ["TechoGeometry", "TechoModel", "TechoRender", "TechoCodecs", "TechoRaster", "TechoEditing", "TechoExport"]),
        .executableTarget(
            name: "techo-assets", dependencies: ["TechoCodecs", "TechoRaster", "CLibHeif", "CLibWebP", "CTechoLazy"], path: "Sources/techo-assets"),
        // Seeded mutation fuzzers for the decoders and text layout (make fuzz, docs/fuzzing.md).
        .target(
            name: "TechoFuzzTargets",
            dependencies: ["TechoModel", "TechoGeometry", "TechoCodecs", "TechoText", "TechoRaster", "TechoEditing", "TechoCommands", "TechoServer", "Techo"]),
        .executableTarget(name: "techo-fuzz", dependencies: ["TechoFuzzTargets", "TechoGeometry"]),
        // techo serve under hostile and heavy load, measured from outside (make load).
        .executableTarget(name: "techo-load", path: "Sources/techo-load"),
        .executableTarget(
            name: "techo-bench",
            dependencies: ["Techo", "TechoEditing", "TechoRender", "TechoCodecs", "TechoRaster", "TechoText", "TechoModel", "TechoGeometry"],
            path: "Sources/techo-bench"),

        .target(name: "TechoTestSupport", dependencies: ["TechoRaster", "TechoCodecs"], path: "Tests/TechoTestSupport"),
        .testTarget(name: "TechoGeometryTests", dependencies: ["TechoGeometry"]),
        .testTarget(name: "TechoResourcesTests", dependencies: ["TechoResources"]),
        // Fixtures and reference images are found through #filePath, so a clone runs its tests in place.
        .testTarget(
            name: "TechoRasterTests", dependencies: ["TechoRaster", "TechoGeometry", "TechoTestSupport"],
            exclude: ["Fixtures", "References"]),
        .testTarget(name: "TechoCodecsTests", dependencies: ["TechoCodecs", "TechoGeometry", "TechoTestSupport"], exclude: ["Fixtures"]),
        .testTarget(name: "TechoTextTests", dependencies: ["TechoText", "TechoTestSupport"], exclude: ["References"]),
        .testTarget(name: "TechoModelTests", dependencies: ["TechoModel", "TechoTestSupport"], exclude: ["Fixtures"]),
        .testTarget(name: "TechoRenderTests", dependencies: ["TechoRender", "TechoTestSupport"]),
        // The library's compiled example: it imports Techo and nothing else of techo's.
        .testTarget(name: "TechoLibraryTests", dependencies: ["Techo", "TechoTestSupport"]),
        .testTarget(name: "TechoEditingTests", dependencies: ["TechoEditing", "TechoModel", "TechoCodecs", "TechoRender", "TechoText"]),
        .testTarget(
            name: "TechoServerTests",
            dependencies: ["TechoServer", "TechoEditing", "TechoCommands", "TechoModel", "TechoCodecs", "TechoRaster", "TechoTestSupport", "Techo"]),
        .testTarget(
            name: "TechoCommandsTests",
            dependencies: ["TechoCommands", "TechoEditing", "TechoExport", "TechoModel", "TechoCodecs", "TechoRaster", "TechoTestSupport"],
            exclude: ["Fixtures"]),
        // The editor page in headless Chromium, with real input events, against `techo serve`.
        .testTarget(name: "TechoEditorTests", dependencies: ["TechoCodecs", "TechoModel", "TechoRaster", "TechoTestSupport"], exclude: ["Fixtures"]),
    ],
    swiftLanguageModes: [.v5]
)

// The libFuzzer entry points exist only in the instrumented build `make fuzz` makes: libFuzzer
// supplies `main`, so an ordinary build could not link them.
if fuzzBuild {
    package.targets.append(.executableTarget(name: "techo-libfuzzer", dependencies: ["TechoFuzzTargets", "TechoGeometry"]))
}
