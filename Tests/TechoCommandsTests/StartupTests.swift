// techo opens its C libraries on first use (CTechoLazy, docs/decisions/startup.md). These tests
// run the built binary under the dynamic loader's own log (LD_DEBUG=libs, which names every
// shared object it initialises, linked or opened later) and fail when a command that needs none
// of them loads one: the sign that a library is linked again.
import Foundation
import TechoTestSupport
import Testing

@Suite struct StartupTests {
    /// The sonames CTechoLazy opens, and what librsvg, libheif and libmicrohttpd pull in.
    static let lazy = [
        "librsvg-2.so", "libcairo.so", "libgobject-2.0.so", "libglib-2.0.so", "libheif.so", "libwebp.so", "libwebpdemux.so",
        "libmicrohttpd.so", "libfreetype.so", "libharfbuzz.so", "libharfbuzz-subset.so", "libfontconfig.so", "libcrypto.so", "libpng16.so", "libjpeg.so",
        "libdeflate.so", "libgnutls.so", "libX11.so", "libx265.so", "libde265.so", "libdav1d.so", "libaom.so", "libxml2.so",
        "libpango-1.0.so", "libqrencode.so",
    ]

    /// The shared objects the loader initialised during a run, from its LD_DEBUG=libs log.
    static func initialised(_ stderr: String) -> [String] {
        stderr.split(separator: "\n").compactMap { line in
            guard let r = line.range(of: "calling init: ") else { return nil }
            return String(line[r.upperBound...]).trimmingCharacters(in: .whitespaces)
        }
    }

    static func loaded(_ lazy: String, in objects: [String]) -> Bool {
        objects.contains { ($0 as NSString).lastPathComponent.hasPrefix(lazy) }
    }

    @Test(arguments: [["--version"], ["--help"]])
    func aCommandThatNeedsNoLibraryLoadsNone(args: [String]) throws {
        let ws = try Workspace()
        let r = try ws.run(args, environment: ["LD_DEBUG": "libs"])
        #expect(r.code == 0, "\(r.err)")
        let objects = Self.initialised(r.err)
        // The log works: libc is always initialised.
        #expect(objects.contains { ($0 as NSString).lastPathComponent.hasPrefix("libc.so") }, "no LD_DEBUG log: \(r.err.prefix(500))")
        for lib in Self.lazy {
            #expect(!Self.loaded(lib, in: objects), "techo \(args.joined(separator: " ")) loaded \(lib)")
        }
    }

    @Test func anExportWithSVGHEICAndWebPStickersOpensTheirLibrariesThen() throws {
        let ws = try Workspace()
        let devices = "../TechoCodecsTests/Fixtures/devices/"
        try Fixtures.data(devices + "svg/star.svg").write(to: ws.url("star.svg"))
        try Fixtures.data(devices + "quad.heic").write(to: ws.url("quad.heic"))
        try Fixtures.data(devices + "quad-alpha-lossless.webp").write(to: ws.url("cat.webp"))
        #expect(try ws.run("init", "j.techo", "--size", "200x200", "--background", "#ffffff").code == 0)
        for (kind, file) in [("image", "star.svg"), ("photo", "quad.heic"), ("image", "cat.webp")] {
            let r = try ws.run("add", kind, "j.techo", "p1", file)
            #expect(r.code == 0, "\(r.err)")
        }
        let e = try ws.run(["export", "j.techo", "-o", "p1.png"], environment: ["LD_DEBUG": "libs"])
        #expect(e.code == 0, "\(e.err.suffix(2000))")
        #expect(try ws.image("p1.png").width == 200)
        let objects = Self.initialised(e.err)
        for lib in ["librsvg-2.so", "libheif.so", "libwebp.so"] {
            #expect(Self.loaded(lib, in: objects), "the export did not open \(lib)")
        }
        #expect(!Self.loaded("libmicrohttpd.so", in: objects), "the export opened the server's library")
    }

    /// An export opens the libraries its pages draw with and no others, the render key's
    /// included (it names the libraries a page is drawn with, not every one techo may use): a
    /// page of a PNG sticker, a JPEG photo, text and ink opens libpng, libjpeg, the text stack
    /// and libdeflate, and not librsvg, libheif or libwebp or what they load.
    @Test func anExportOfStickersPhotosTextAndInkOpensOnlyTheirLibraries() throws {
        let ws = try Workspace()
        try ws.png("s.png", 24, 16, rgba: (200, 40, 40, 255))
        try ws.jpeg("photo.jpg", 40, 30, rgb: (30, 90, 200))
        #expect(try ws.run("init", "j.techo", "--size", "200x200", "--background", "#ffffff").code == 0)
        for args in [
            ["add", "image", "j.techo", "p1", "s.png"], ["add", "photo", "j.techo", "p1", "photo.jpg"],
            ["add", "text", "j.techo", "p1", "Kyoto"], ["draw", "j.techo", "p1", "--tool", "pencil", "--points", "10,10 80,90"],
        ] {
            let r = try ws.run(args)
            #expect(r.code == 0, "\(args): \(r.err)")
        }
        let e = try ws.run(["export", "j.techo", "-o", "p1.png"], environment: ["LD_DEBUG": "libs"])
        #expect(e.code == 0, "\(e.err.suffix(2000))")
        #expect(try ws.image("p1.png").width == 200)
        let objects = Self.initialised(e.err)
        for lib in ["libpng16.so", "libjpeg.so", "libfreetype.so", "libharfbuzz.so", "libdeflate.so"] {
            #expect(Self.loaded(lib, in: objects), "the export did not open \(lib)")
        }
        for lib in ["librsvg-2.so", "libcairo.so", "libheif.so", "libde265.so", "libx265.so", "libwebp.so", "libpango-1.0.so", "libmicrohttpd.so"] {
            #expect(!Self.loaded(lib, in: objects), "the export opened \(lib), which no page draws with")
        }
    }

    /// A library that cannot be opened is a broken install: the command fails with an error that
    /// names the library and its Debian package, and does not crash.
    @Test func aMissingLibraryIsAnErrorNamingItsPackage() throws {
        let ws = try Workspace()
        try Fixtures.data("../TechoCodecsTests/Fixtures/devices/quad-alpha-lossless.webp").write(to: ws.url("cat.webp"))
        #expect(try ws.run("init", "j.techo", "--size", "200x200").code == 0)
        let r = try ws.run(["add", "image", "j.techo", "p1", "cat.webp"], environment: ["TECHO_LAZY_REFUSE": "libwebp.so.7"])
        #expect(r.code == 65, "\(r.code): \(r.err)")
        #expect(r.err.contains("cat.webp") && r.err.contains("libwebp.so.7") && r.err.contains("libwebp7"), "\(r.err)")
        // Nothing was added: with the library back, the sticker is the page's first image.
        let ok = try ws.run("add", "image", "j.techo", "p1", "cat.webp")
        #expect(ok.code == 0, "\(ok.err)")
        #expect(ok.out.trimmingCharacters(in: .whitespacesAndNewlines) == "image-1")
        // A library no decoder asks about first (text): exit status 1 and the same message, no crash.
        let text = try ws.run(["add", "text", "j.techo", "p1", "hello"], environment: ["TECHO_LAZY_REFUSE": "libfreetype.so.6"])
        #expect(text.code == 1, "\(text.code): \(text.err)")
        #expect(text.err.contains("libfreetype.so.6") && text.err.contains("libfreetype6"), "\(text.err)")
    }
}
