// End to end: a rebuild renders only what changed (docs/decisions/rebuild.md). A PNG or JPEG
// page whose output file already holds its render key, untouched, is neither rendered nor
// written; anything else (a moved sticker, an edited, truncated or foreign file, another
// setting, --force) renders again, and the folder is always what a fresh export writes.
import Foundation
import TechoCodecs
import TechoModel
import TechoRaster
import TechoRender
import TechoTestSupport
import Testing

@testable import TechoExport

@Suite struct RebuildTests {
    static let timings = ["TECHO_TIMINGS": "1"]

    /// A journal of four small pages: a sticker (`s1`), text, ink, and a photo with a sticker.
    func journal() throws -> Workspace {
        let ws = try Workspace()
        try ws.png("s.png", 24, 16, rgba: (200, 40, 40, 255))
        try ws.jpeg("photo.jpg", 40, 30, rgb: (30, 90, 200))
        try ok(ws, "init", "j.techo", "--size", "160x120", "--dpi", "72", "--background", "#f6f0e4")
        for _ in 0..<3 { try ok(ws, "page", "add", "j.techo") }
        try ok(ws, "add", "image", "j.techo", "p1", "s.png", "--id", "s1", "--at", "40,40")
        try ok(ws, "add", "text", "j.techo", "p2", "Kyoto", "--size", "20", "--at", "80,60")
        try ok(ws, "draw", "j.techo", "p3", "--tool", "pencil", "--color", "#e07a5f", "--width", "4", "--points", "10,10 80,90 150,20")
        try ok(ws, "add", "photo", "j.techo", "p4", "photo.jpg", "--at", "60,60")
        try ok(ws, "add", "image", "j.techo", "p4", "s.png", "--at", "120,90", "--rotate", "20")
        return ws
    }

    @discardableResult
    func ok(_ ws: Workspace, _ args: String...) throws -> RunResult { try ok(ws, args) }

    @discardableResult
    func ok(_ ws: Workspace, _ args: [String]) throws -> RunResult {
        let r = try ws.run(args)
        #expect(r.code == 0, "techo \(args.joined(separator: " ")): \(r.err)")
        return r
    }

    /// Runs an export or build with TECHO_TIMINGS=1; returns the run and the pages it found unchanged.
    func timed(_ ws: Workspace, _ args: [String]) throws -> (run: RunResult, unchanged: Int?) {
        let r = try ws.run(args, environment: Self.timings)
        #expect(r.code == 0, "techo \(args.joined(separator: " ")): \(r.err)")
        return (r, Self.unchanged(in: r.err))
    }

    /// The `unchanged N` of the TECHO_TIMINGS line.
    static func unchanged(in err: String) -> Int? {
        guard let line = err.split(separator: "\n").last(where: { $0.hasPrefix("techo: timings: pages") }),
            let r = line.range(of: " unchanged ")
        else { return nil }
        return Int(line[r.upperBound...].prefix { $0.isNumber })
    }

    /// Each entry of a folder (hidden temp files included): name → inode, modification time (ns)
    /// and size. A file written again, even with the same bytes, gets a new inode (it is renamed
    /// into place) and a new time.
    static func entries(_ folder: URL) throws -> [String: [Int]] {
        var out: [String: [Int]] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
            var st = stat()
            #expect(lstat(folder.appendingPathComponent(name).path, &st) == 0)
            out[name] = [Int(st.st_ino), st.st_mtim.tv_sec * 1_000_000_000 + st.st_mtim.tv_nsec, Int(st.st_size)]
        }
        return out
    }

    /// Every file of `folder` has the bytes of the same name in `fresh`, and the names are the same.
    func expectSameFiles(_ ws: Workspace, _ folder: String, as fresh: String, _ note: String = "") throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: ws.url(folder).path).sorted()
        let freshNames = try FileManager.default.contentsOfDirectory(atPath: ws.url(fresh).path).sorted()
        #expect(names == freshNames, "\(note): \(names) vs \(freshNames)")
        for n in freshNames where names.contains(n) {
            #expect(try ws.bytes("\(folder)/\(n)") == ws.bytes("\(fresh)/\(n)"), "\(note): \(n) differs from a fresh export")
        }
    }

    /// An unchanged export renders and writes nothing: every file keeps its inode, time and
    /// size, no temp file is left, the exporter says 4 pages unchanged, and stdout still lists
    /// the four files. The folder is what a fresh export writes.
    @Test func unchangedExportWritesNothing() throws {
        let ws = try journal()
        let first = try timed(ws, ["export", "j.techo", "-o", "out"])
        #expect(first.unchanged == 0)
        let before = try Self.entries(ws.url("out"))
        #expect(before.count == 4)
        let again = try timed(ws, ["export", "j.techo", "-o", "out"])
        #expect(again.unchanged == 4, "\(again.run.err)")
        #expect(try Self.entries(ws.url("out")) == before, "an unchanged export touched its files")
        #expect(again.run.out == first.run.out, "the unchanged files are still listed")
        #expect(again.run.out.split(separator: "\n").count == 4)
        try ok(ws, "export", "j.techo", "-o", "fresh")
        try expectSameFiles(ws, "out", as: "fresh")

        // A temp file a killed export left (its process is gone) goes, as when the page is written.
        let stale = ws.url("out/.01-p1.png.tmp-4194303-7")
        try Data([1, 2, 3]).write(to: stale)
        #expect(try timed(ws, ["export", "j.techo", "-o", "out"]).unchanged == 4)
        #expect(!FileManager.default.fileExists(atPath: stale.path), "a killed export's temp file stays")
        #expect(try Self.entries(ws.url("out")) == before)

        // JPEG too.
        #expect(try timed(ws, ["export", "j.techo", "-o", "jpeg", "--format", "jpeg"]).unchanged == 0)
        let jpegs = try Self.entries(ws.url("jpeg"))
        #expect(try timed(ws, ["export", "j.techo", "-o", "jpeg", "--format", "jpeg"]).unchanged == 4)
        #expect(try Self.entries(ws.url("jpeg")) == jpegs)
    }

    /// One sticker moved with `techo gesture` renders exactly its page again: the other three
    /// files keep their inodes and times, and the folder is byte for byte a fresh export.
    @Test func oneStickerMovedRendersOnePage() throws {
        let ws = try journal()
        try ok(ws, "export", "j.techo", "-o", "out")
        let before = try Self.entries(ws.url("out"))
        let old = try ws.bytes("out/01-p1.png")
        try ok(ws, "gesture", "j.techo", "p1", "s1", "--pan", "30,5")
        let r = try timed(ws, ["export", "j.techo", "-o", "out"])
        #expect(r.unchanged == 3, "\(r.run.err)")
        let after = try Self.entries(ws.url("out"))
        #expect(after["01-p1.png"] != before["01-p1.png"], "the moved sticker's page was not written")
        #expect(try ws.bytes("out/01-p1.png") != old)
        for n in ["02-p2.png", "03-p3.png", "04-p4.png"] { #expect(after[n] == before[n], "\(n) was written again") }
        try ok(ws, "export", "j.techo", "-o", "fresh")
        try expectSameFiles(ws, "out", as: "fresh")
    }

    /// `techo build` twice from the same manifest renders nothing the second time; moving one
    /// element in the manifest renders that page alone.
    @Test func manifestChangeRendersItsPageAlone() throws {
        let ws = try Workspace()
        try ws.png("s.png", 20, 20, rgba: (40, 160, 60, 255))
        func manifest(_ x: Int) -> String {
            """
            {"techo": 1, "title": "Trip", "page": {"size": "120x90", "dpi": 72, "background": {"color": "#ffffff"}},
             "pages": [
              {"id": "a", "elements": [{"type": "image", "src": "s.png", "at": [\(x), 40]}]},
              {"id": "b", "elements": [{"type": "image", "src": "s.png", "at": [60, 40], "rotate": 30}]},
              {"id": "c", "elements": [{"type": "ink", "strokes": [{"tool": "pencil", "color": "#333333", "width": 3, "points": [[5, 5], [100, 80]]}]}]}
             ]}
            """
        }
        try manifest(30).write(to: ws.url("trip.json"), atomically: true, encoding: .utf8)
        #expect(try timed(ws, ["build", "trip.json"]).unchanged == 0)
        let before = try Self.entries(ws.url("trip-pages"))
        let again = try timed(ws, ["build", "trip.json"])
        #expect(again.unchanged == 3, "\(again.run.err)")
        #expect(try Self.entries(ws.url("trip-pages")) == before)
        #expect(again.run.out.split(separator: "\n").count == 3, "the build lists its pages: \(again.run.out)")

        try manifest(70).write(to: ws.url("trip.json"), atomically: true, encoding: .utf8)
        let moved = try timed(ws, ["build", "trip.json"])
        #expect(moved.unchanged == 2, "\(moved.run.err)")
        let after = try Self.entries(ws.url("trip-pages"))
        let names = before.keys.sorted()
        #expect(names.count == 3)
        #expect(after[names[0]] != before[names[0]], "the moved element's page was not written")
        for n in names.dropFirst() { #expect(after[n] == before[n], "\(n) was written again") }
        try ok(ws, "export", "trip.techo", "-o", "fresh")
        try expectSameFiles(ws, "trip-pages", as: "fresh")
    }

    /// An output file that is not exactly what techo wrote is rendered again, and ends as a
    /// fresh export's: one byte of the image data flipped, truncated, another valid PNG without
    /// a stamp, a copy of another page's file, a FIFO (read without blocking), a link to the
    /// right file elsewhere (never followed), and a JPEG with a byte flipped.
    @Test func editedOutputRendersAgain() throws {
        let ws = try journal()
        try ok(ws, "export", "j.techo", "-o", "fresh")
        try ok(ws, "export", "j.techo", "-o", "jfresh", "--format", "jpeg")
        let target = "out/02-p2.png"
        let cases: [(String, () throws -> Void)] = [
            (
                "a byte of the image data flipped",
                {
                    var b = try ws.bytes(target)
                    let idat = try #require(RenderStamp.pngChunks(b)?.first { $0.type == "IDAT" })
                    b[idat.data.lowerBound + idat.data.count / 2] ^= 0x20
                    try Data(b).write(to: ws.url(target))
                }
            ),
            (
                "truncated",
                {
                    let b = try ws.bytes(target)
                    try Data(b.prefix(b.count - 20)).write(to: ws.url(target))
                }
            ),
            (
                "another valid PNG",
                {
                    try FileManager.default.removeItem(at: ws.url(target))
                    try ws.png(target, 160, 120, rgba: (1, 2, 3, 255))
                }
            ),
            (
                "a copy of another page's file",
                {
                    try FileManager.default.removeItem(at: ws.url(target))
                    try FileManager.default.copyItem(at: ws.url("out/03-p3.png"), to: ws.url(target))
                }
            ),
            (
                "a FIFO",
                {
                    try FileManager.default.removeItem(at: ws.url(target))
                    #expect(mkfifo(ws.url(target).path, 0o644) == 0)
                }
            ),
            (
                "a link to the right file",
                {
                    try FileManager.default.removeItem(at: ws.url(target))
                    try FileManager.default.createSymbolicLink(atPath: ws.url(target).path, withDestinationPath: ws.url("fresh/02-p2.png").path)
                }
            ),
        ]
        for (what, edit) in cases {
            try ok(ws, "export", "j.techo", "-o", "out")
            try edit()
            let before = try Self.entries(ws.url("out"))
            let r = try timed(ws, ["export", "j.techo", "-o", "out"])
            #expect(r.unchanged == 3, "\(what): \(r.run.err)")
            let after = try Self.entries(ws.url("out"))
            #expect(after["02-p2.png"] != before["02-p2.png"], "\(what): not written again")
            var st = stat()
            #expect(lstat(ws.url(target).path, &st) == 0 && st.st_mode & S_IFMT == S_IFREG, "\(what): not a regular file now")
            try expectSameFiles(ws, "out", as: "fresh", what)
        }

        try ok(ws, "export", "j.techo", "-o", "jout", "--format", "jpeg")
        var b = try ws.bytes("jout/04-p4.jpg")
        b[b.count - 40] ^= 0x01  // inside the entropy-coded scan
        try Data(b).write(to: ws.url("jout/04-p4.jpg"))
        let r = try timed(ws, ["export", "j.techo", "-o", "jout", "--format", "jpeg"])
        #expect(r.unchanged == 3, "JPEG with a byte flipped: \(r.run.err)")
        try expectSameFiles(ws, "jout", as: "jfresh", "JPEG with a byte flipped")
    }

    /// Another scale, dpi or JPEG quality renders every page again; going back renders again too,
    /// and each result is a fresh export's.
    @Test func changedSettingRendersAgain() throws {
        let ws = try journal()
        for (args, fresh) in [
            (["--scale", "1"], "f1"), (["--scale", "1.5"], "f2"), (["--dpi", "144"], "f3"), (["--scale", "1"], "f1"),
        ] {
            try ok(ws, ["export", "j.techo", "-o", fresh] + args)
            let r = try timed(ws, ["export", "j.techo", "-o", "out"] + args)
            #expect(r.unchanged == 0, "\(args): \(r.run.err)")
            try expectSameFiles(ws, "out", as: fresh, "\(args)")
        }
        for (q, fresh) in [("92", "q92"), ("60", "q60")] {
            try ok(ws, "export", "j.techo", "-o", fresh, "--format", "jpeg", "--quality", q)
            let r = try timed(ws, ["export", "j.techo", "-o", "jout", "--format", "jpeg", "--quality", q])
            #expect(r.unchanged == 0, "--quality \(q): \(r.run.err)")
            try expectSameFiles(ws, "jout", as: fresh, "--quality \(q)")
        }
        // A PNG renamed .jpg is not taken for the JPEG.
        try FileManager.default.createDirectory(at: ws.url("renamed"), withIntermediateDirectories: true)
        for n in 1...4 {
            let id = "p\(n)"
            try FileManager.default.copyItem(at: ws.url("out/0\(n)-\(id).png"), to: ws.url("renamed/0\(n)-\(id).jpg"))
        }
        #expect(try timed(ws, ["export", "j.techo", "-o", "renamed", "--format", "jpeg"]).unchanged == 0)
    }

    /// The PNG level (no option; the library's setting) is part of the key: the exporter renders
    /// again at another level.
    @Test func changedPNGLevelRendersAgain() throws {
        let ws = try journal()
        let store = try JournalStore.open(ws.url("j.techo"))
        let (journal, pages) = try store.read()
        let chosen = journal.pageOrder.compactMap { pages[$0] }
        let outputs = Exporter.outputs(
            for: chosen.enumerated().map { ($0.offset + 1, $0.element) }, total: chosen.count, target: ws.url("out"), isFile: false, format: .png)
        try FileManager.default.createDirectory(at: ws.url("out"), withIntermediateDirectories: true)
        let renderer = PageRenderer(assetURL: store.assetURL)
        func export(level: Int) throws -> Int? {
            var settings = ExportSettings()
            settings.level = level
            settings.timings = true
            let said = Said()
            _ = try Exporter.run(pages: chosen, outputs: outputs, title: "t", settings: settings, renderer: renderer, err: said.add)
            return Self.unchanged(in: said.text)
        }
        #expect(try export(level: 4) == 0)
        #expect(try export(level: 4) == 4)
        #expect(try export(level: 9) == 0)
        #expect(try export(level: 9) == 4)
    }

    final class Said: @unchecked Sendable {
        private let lock = NSLock()
        private var parts: [String] = []
        func add(_ s: String) { lock.lock(); parts.append(s); lock.unlock() }
        var text: String { lock.lock(); defer { lock.unlock() }; return parts.joined() }
    }

    /// `--force` renders and writes every page (new inodes), with the same bytes; for build too.
    @Test func forceRendersEverything() throws {
        let ws = try journal()
        try ok(ws, "export", "j.techo", "-o", "out")
        let before = try Self.entries(ws.url("out"))
        let bytes = try before.keys.sorted().map { try ws.bytes("out/\($0)") }
        let r = try timed(ws, ["export", "j.techo", "-o", "out", "--force"])
        #expect(r.unchanged == 0, "\(r.run.err)")
        let after = try Self.entries(ws.url("out"))
        for n in before.keys { #expect(after[n]?[0] != before[n]?[0], "\(n) was not written") }
        #expect(try before.keys.sorted().map { try ws.bytes("out/\($0)") } == bytes)

        try ws.png("s.png", 20, 20, rgba: (40, 160, 60, 255))
        let manifest = """
            {"techo": 1, "page": {"size": "100x80", "dpi": 72},
             "pages": [{"id": "a", "elements": [{"type": "image", "src": "s.png", "at": [30, 30]}]}]}
            """
        try manifest.write(to: ws.url("m.json"), atomically: true, encoding: .utf8)
        #expect(try timed(ws, ["build", "m.json"]).unchanged == 0)
        #expect(try timed(ws, ["build", "m.json"]).unchanged == 1)
        #expect(try timed(ws, ["build", "m.json", "--force"]).unchanged == 0)
    }
}
