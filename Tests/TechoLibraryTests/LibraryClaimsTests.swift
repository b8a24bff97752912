// docs/library.md's claims beyond the example: `renderPNG` gives the bytes `techo export` writes
// (but for the render key, which names the program),
// and `addPicture` removes GPS unless `keepGPS`. Through the public API of the Techo product
// alone; the `techo` binary built beside the tests is the other side of the comparison.
import Foundation
import Techo
import TechoTestSupport
import Testing

@Suite struct LibraryClaimsTests {
    /// The `techo` executable beside the test binary (swift build puts every product in one folder).
    static let techo = BuiltProducts.url("techo")

    static func device(_ name: String) -> URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../TechoCodecsTests/Fixtures/devices/\(name)").standardizedFileURL
    }

    static func scratch(_ name: String) throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("techo-library-\(name)-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    /// Runs `techo ARGS` in `dir`; returns its exit code and stderr.
    static func run(_ args: [String], in dir: URL) throws -> (Int32, String) {
        let p = Process()
        p.executableURL = techo
        p.arguments = args
        p.currentDirectoryURL = dir
        let err = Pipe()
        p.standardError = err
        p.standardOutput = FileHandle.nullDevice
        p.standardInput = FileHandle.nullDevice
        try p.run()
        let text = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        return (p.terminationStatus, text)
    }

    /// `renderPNG(page:scale:)` gives the file `techo export --page P [--scale S]` writes, byte
    /// for byte but for the render key in its stamp, which names the program that renders (here
    /// the test program, there `techo`): a page with a photo (framed, with a shadow), a sticker,
    /// text, ink and a translucent highlighter, at scale 1 and 2 (which also changes the pHYs dpi).
    @Test func renderPNGIsTheBytesTechoExportWrites() throws {
        let dir = try Self.scratch("export")
        defer { try? FileManager.default.removeItem(at: dir) }
        let journal = try JournalEditor.create(at: dir.appendingPathComponent("j.techo"), size: "240x160", dpi: 150, background: try RGBA(parsing: "#f6f0e4"))
        let photo = try journal.addPicture(Self.device("quad.heic"), to: "p1", photo: true, at: Point(x: 80, y: 70), width: 90)
        var framed = ElementPatch()
        framed.frame = .polaroid
        framed.shadow = true
        try journal.set(framed, on: photo, of: "p1")
        _ = try journal.addPicture(Self.device("svg/star.svg"), to: "p1", at: Point(x: 190, y: 50))
        var text = TextContent(text: "Kyoto 京都")
        text.size = 18
        _ = try journal.addText(text, to: "p1", at: Point(x: 170, y: 130))
        try journal.apply([.rotate(degrees: 12, around: nil)], to: photo, on: "p1")
        _ = try journal.draw(
            try Stroke(
                tool: .pencil, color: try RGBA(parsing: "#e07a5f"), width: 5, points: [StrokePoint(10, 150), StrokePoint(120, 140), StrokePoint(230, 152)]),
            on: "p1")
        _ = try journal.draw(
            try Stroke(tool: .highlighter, color: try RGBA(parsing: "#ffe45c"), width: 16, opacity: 0.5, points: [StrokePoint(20, 20), StrokePoint(220, 30)]),
            on: "p1")
        for (scale, name) in [(1.0, "one.png"), (2.0, "two.png")] {
            let (code, err) = try Self.run(["export", "j.techo", "--page", "p1", "--scale", "\(scale)", "-o", name], in: dir)
            #expect(code == 0, "\(err)")
            let exported = [UInt8](try Data(contentsOf: dir.appendingPathComponent(name)))
            let rendered = try journal.renderPNG(page: "p1", scale: scale)
            #expect(
                rendered.count == exported.count && Self.withoutKey(rendered) == Self.withoutKey(exported),
                "scale \(scale): \(rendered.count) bytes rendered, \(exported.count) exported")
            #expect(Self.withoutKey(rendered) != rendered, "scale \(scale): no render stamp")
        }
    }

    /// The PNG with the 64 hex digits after `techo-render\0key=` (the render key) and its
    /// chunk's CRC zeroed.
    static func withoutKey(_ png: [UInt8]) -> [UInt8] {
        let marker = Array("tEXttecho-render\0key=".utf8)
        var out = png
        for i in 4..<max(4, png.count - marker.count - 64) where png[i] == marker[0] && Array(png[i..<(i + marker.count)]) == marker {
            let length = Int(png[i - 4]) << 24 | Int(png[i - 3]) << 16 | Int(png[i - 2]) << 8 | Int(png[i - 1])
            guard i + 8 + length <= png.count else { continue }
            for j in (i + marker.count)..<(i + marker.count + 64) { out[j] = 0x30 }
            for j in (i + 4 + length)..<(i + 8 + length) { out[j] = 0 }
        }
        return out
    }

    /// The positions in `bytes` of EXIF blocks whose first IFD holds the GPS pointer (tag
    /// 0x8825): a reader of its own, independent of techo's.
    static func exifBlocksWithGPS(_ bytes: [UInt8]) -> Int {
        var found = 0
        let marker: [UInt8] = Array("Exif\0\0".utf8)
        var i = 0
        while i + marker.count + 8 <= bytes.count {
            guard Array(bytes[i..<(i + marker.count)]) == marker else {
                i += 1
                continue
            }
            let t = i + marker.count
            let big = bytes[t] == 0x4D
            func u16(_ o: Int) -> Int { o + 2 <= bytes.count ? (big ? Int(bytes[o]) << 8 | Int(bytes[o + 1]) : Int(bytes[o + 1]) << 8 | Int(bytes[o])) : 0 }
            func u32(_ o: Int) -> Int { u16(big ? o : o + 2) << 16 | u16(big ? o + 2 : o) }
            let ifd0 = t + u32(t + 4)
            for e in 0..<u16(ifd0) where u16(ifd0 + 2 + 12 * e) == 0x8825 { found += 1 }
            i = t
        }
        return found
    }

    /// `addPicture` removes GPS unless `keepGPS`: a phone-style HEIC whose EXIF has a GPS
    /// latitude is stored without the GPS pointer (and keeps its size: the EXIF is edited in
    /// place); with `keepGPS: true` it is stored byte for byte.
    @Test func addPictureRemovesGPSUnlessKeepGPS() throws {
        let dir = try Self.scratch("gps")
        defer { try? FileManager.default.removeItem(at: dir) }
        let original = [UInt8](try Data(contentsOf: Self.device("quad-orient6.heic")))
        #expect(Self.exifBlocksWithGPS(original) == 1, "the fixture has lost its GPS")
        let url = dir.appendingPathComponent("j.techo")
        let journal = try JournalEditor.create(at: url, size: "200x200")
        func stored(_ id: String) throws -> [UInt8] {
            guard case .photo(let p) = try #require(try journal.page("p1").elements.first { $0.id == id }).content else {
                throw EditError(.invalid, "\(id) is not a photo")
            }
            return [UInt8](try Data(contentsOf: url.appendingPathComponent(p.image.asset.path)))
        }
        let stripped = try journal.addPicture(Self.device("quad-orient6.heic"), to: "p1", photo: true)
        let s = try stored(stripped)
        #expect(Self.exifBlocksWithGPS(s) == 0, "GPS kept without keepGPS")
        #expect(s.count == original.count && s != original)
        let kept = try journal.addPicture(Self.device("quad-orient6.heic"), to: "p1", photo: true, keepGPS: true)
        #expect(try stored(kept) == original, "keepGPS changed the file")
    }
}
