// End to end: `techo build` checks its pictures on other cores and draws the pages while the
// journal is written (docs/decisions/sources.md). What it writes must be what it wrote when each
// step waited for the one before: the pages as an export of the journal draws them, the same
// report for a bad picture, and nothing written when anything fails.
import Foundation
import TechoCodecs
import TechoRaster
import TechoTestSupport
import Testing

@Suite struct BuildOverlapTests {
    /// A photo with GPS data (imported as its cleaned copy), a sticker file, a built-in pack's
    /// sticker (bytes in memory, not a file) and text: each kind of picture source.
    func manifest(_ ws: Workspace, photo: String = "gps.jpg") throws {
        try ws.jpeg("plain.jpg", 96, 64, rgb: (40, 120, 200))
        let plain = try ws.bytes("plain.jpg")
        try ws.write("gps.jpg", Array(plain[0..<2]) + FuzzChecksTests.gpsAPP1 + Array(plain[2...]))
        try ws.png("s.png", 24, 16, rgba: (200, 40, 40, 255))
        try ws.write(
            "m.json",
            """
            {"title": "Trip", "page": {"size": "300x200", "dpi": 72, "background": "#f6f0e4"},
             "pages": [{"id": "a", "elements": [
               {"type": "photo", "src": "\(photo)", "at": [90, 80], "width": 120, "rotate": -5},
               {"type": "image", "src": "s.png", "at": [220, 60], "width": 40},
               {"type": "image", "sticker": "weather/sun", "at": [240, 150], "width": 50},
               {"type": "text", "text": "Kyoto", "at": [150, 170], "size": 18}]},
              {"id": "b", "elements": [{"type": "image", "src": "s.png", "at": [150, 100], "width": 80}]}]}
            """)
    }

    /// A JPEG of noise cut in half: its header is whole, so only the check of its whole stream
    /// (the one run on another core) finds it damaged.
    func cutJPEG(_ ws: Workspace, _ name: String) throws {
        var pm = Pixmap(width: 256, height: 192)
        var seed: UInt32 = 12345
        for i in pm.data.indices {
            seed = seed &* 1_664_525 &+ 1_013_904_223
            pm.data[i] = i % 4 == 3 ? 255 : UInt8(truncatingIfNeeded: seed >> 24)
        }
        let whole = try JPEGEncoder.encode(pm, quality: 90, name: name)
        try ws.write(name, Array(whole.prefix(whole.count / 2)))
    }

    @Test func theBuildsPagesAreWhatAnExportOfItsJournalDraws() throws {
        let ws = try Workspace()
        try manifest(ws)
        let built = try ws.run("build", "m.json", "-o", "out")
        #expect(built.code == 0, "\(built.err)")
        let forced = try ws.run("export", "m.techo", "-o", "again", "--force")
        #expect(forced.code == 0, "\(forced.err)")
        let out = ws.snapshot("out"), again = ws.snapshot("again")
        #expect(out.count == 2 && out.keys.sorted() == again.keys.sorted(), "\(out.keys.sorted()) \(again.keys.sorted())")
        for (name, bytes) in out { #expect(again[name] == bytes, "\(name) differs from the export of the journal") }
        #expect(try ws.run("check", "m.techo").code == 0)
        // The journal holds the cleaned photo, not the file with GPS data.
        let assets = ws.snapshot("m.techo").filter { $0.key.hasPrefix("assets/") && $0.key.hasSuffix(".jpg") }
        #expect(assets.count == 1)
        #expect(assets.values.first != (try ws.bytes("gps.jpg")))

        // A rebuild into the journal with a new photo: known pictures come from the journal,
        // the new one from its file; the page is again what an export draws.
        try ws.jpeg("other.jpg", 80, 80, rgb: (220, 180, 40))
        try ws.write("m.json", String(decoding: try ws.bytes("m.json"), as: UTF8.self).replacingOccurrences(of: "gps.jpg", with: "other.jpg"))
        let rebuilt = try ws.run("build", "m.json", "-o", "out")
        #expect(rebuilt.code == 0, "\(rebuilt.err)")
        #expect(try ws.run("export", "m.techo", "-o", "again", "--force").code == 0)
        let out2 = ws.snapshot("out"), again2 = ws.snapshot("again")
        for (name, bytes) in out2 { #expect(again2[name] == bytes, "\(name) differs after the rebuild") }
        #expect(out2.first { $0.key.contains("-a.") }?.value != out.first { $0.key.contains("-a.") }?.value, "page a changed")
    }

    @Test func aJournalThatCannotBeWrittenLeavesNoPageFile() throws {
        let ws = try Workspace()
        try manifest(ws)
        try ws.write("file.txt", "a file, not a folder")
        let r = try ws.run("build", "m.json", "--journal", "file.txt/j.techo", "-o", "out")
        #expect(r.code != 0)
        #expect(r.err.contains("file.txt/j.techo"), "\(r.err)")
        #expect(!ws.exists("out"), "no page is written when the journal is not")
    }

    @Test func aDamagedPictureInARebuildChangesNothing() throws {
        let ws = try Workspace()
        try manifest(ws)
        #expect(try ws.run("build", "m.json", "-o", "out").code == 0)
        let journal = ws.snapshot("m.techo"), pages = ws.snapshot("out")
        try cutJPEG(ws, "cut.jpg")
        let text = String(decoding: try ws.bytes("m.json"), as: UTF8.self)
        try ws.write("m.json", text.replacingOccurrences(of: "gps.jpg", with: "cut.jpg"))
        let r = try ws.run("build", "m.json", "-o", "out")
        #expect(r.code == 65, "\(r.code) \(r.err)")
        #expect(r.err.contains("pages[0].elements[0].src") && r.err.contains("cut.jpg"), "\(r.err)")
        #expect(ws.snapshot("m.techo") == journal, "the journal is unchanged")
        #expect(ws.snapshot("out") == pages, "the pages are unchanged")
    }

    /// Every problem of a manifest is reported at once: a picture that fails its check (found on
    /// another core) is listed with a field the manifest does not know.
    @Test func aDamagedPictureIsReportedWithTheManifestsOtherProblems() throws {
        let ws = try Workspace()
        try manifest(ws)
        try cutJPEG(ws, "cut.jpg")
        let text = String(decoding: try ws.bytes("m.json"), as: UTF8.self)
        try ws.write("m.json", text.replacingOccurrences(of: "gps.jpg", with: "cut.jpg").replacingOccurrences(of: "\"rotate\"", with: "\"rotation\""))
        let r = try ws.run("build", "m.json", "-o", "out")
        #expect(r.code == 65, "\(r.code) \(r.err)")
        #expect(r.err.contains("2 problems"), "\(r.err)")
        #expect(r.err.contains("pages[0].elements[0].src: ") && r.err.contains("cut.jpg"), "\(r.err)")
        #expect(r.err.contains("pages[0].elements[0].rotation: unknown field"), "\(r.err)")
        #expect(!ws.exists("m.techo") && !ws.exists("out"))
    }
}
