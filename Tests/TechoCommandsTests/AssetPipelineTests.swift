// The asset pipeline end to end: a failed command leaves assets/ as it was, `check` probes every
// asset, `gc` removes only what no page or history step uses, an existing folder given as -o is
// written into, and a rebuild does only what changed.
import Foundation
import TechoCodecs
import TechoModel
import TechoRaster
import Testing

@Suite struct AssetPipelineTests {
    /// A journal with one 10×10 sticker on p1.
    func journal(_ ws: Workspace) throws {
        try ws.png("s.png", 10, 10, rgba: (0, 0, 0, 255))
        #expect(try ws.run("init", "j.techo", "--size", "200x200").code == 0)
        #expect(try ws.run("add", "image", "j.techo", "p1", "s.png").code == 0)
    }

    // MARK: A failed command changes nothing, assets included (issue 15, item 5)

    @Test(arguments: [
        (["add", "image", "j.techo", "p9", "new.png"], Int32(66)),
        (["add", "image", "j.techo", "p1", "new.png", "--id", "image-1"], Int32(65)),
        (["add", "photo", "j.techo", "p9", "new.png"], Int32(66)),
        (["add", "washi", "j.techo", "p9", "--from", "1,1", "--to", "50,50", "--pattern", "new.png"], Int32(66)),
        (["background", "j.techo", "p9", "--image", "new.png"], Int32(66)),
        (["add", "image", "j.techo", "p1", "new.png", "--frame", "polaroid"], Int32(64)),
    ])
    func failedImportLeavesTheBundleByteIdentical(args: [String], code: Int32) throws {
        let ws = try Workspace()
        try journal(ws)
        try ws.png("new.png", 12, 8, rgba: (200, 10, 10, 255))
        let before = ws.snapshot("j.techo")
        let r = try ws.run(args)
        #expect(r.code == code, "\(args): \(r.code) \(r.err)")
        #expect(ws.snapshot("j.techo") == before, "\(args) changed the bundle: \(Set(ws.snapshot("j.techo").keys).symmetricDifference(before.keys))")
    }

    // MARK: gc (issue 15, item 5)

    @Test func gcRemovesOnlyAssetsNoPageAndNoHistoryStepUses() throws {
        let ws = try Workspace()
        try journal(ws)
        try ws.png("b.png", 12, 8, rgba: (200, 10, 10, 255))
        try ws.png("c.png", 14, 8, rgba: (10, 200, 10, 255))
        #expect(try ws.run("add", "image", "j.techo", "p1", "b.png").code == 0)  // image-2
        #expect(try ws.run("add", "image", "j.techo", "p1", "c.png").code == 0)  // image-3
        #expect(try ws.run("rm", "j.techo", "p1", "image-2").code == 0)
        #expect(try ws.run("undo", "j.techo").code == 0)
        #expect(try ws.run("undo", "j.techo").code == 0)  // image-3 undone: only redo needs c.png
        let assets = Set(try FileManager.default.contentsOfDirectory(atPath: ws.url("j.techo/assets").path))
        #expect(assets.count == 3)
        // Everything is still reachable by undo or redo: nothing goes.
        var r = try ws.run("gc", "j.techo")
        #expect(r.code == 0 && r.out.isEmpty, "\(r.out) \(r.err)")
        #expect(Set(try FileManager.default.contentsOfDirectory(atPath: ws.url("j.techo/assets").path)) == assets)
        #expect(try ws.run("redo", "j.techo").code == 0)
        #expect(try ws.run("redo", "j.techo").code == 0)  // image-2 removed again
        // Trim the history to the last step: the steps that added and removed b.png are gone,
        // and no page uses it, so only b.png is unreachable.
        let journalFile = ws.url("j.techo/journal.json")
        let text = try String(contentsOf: journalFile, encoding: .utf8).replacingOccurrences(of: "\"historyLimit\": 100", with: "\"historyLimit\": 1")
        try text.write(to: journalFile, atomically: true, encoding: .utf8)
        #expect(try ws.run("gesture", "j.techo", "p1", "image-1", "--pan", "1,0").code == 0)
        let bName = "assets/" + SHA256.hex(try ws.bytes("b.png")) + ".png"
        r = try ws.run("gc", "j.techo", "--dry-run")
        #expect(r.code == 0 && r.out == bName + "\n", "\(r.out) \(r.err)")
        #expect(ws.exists("j.techo/" + bName))
        r = try ws.run("gc", "j.techo")
        #expect(r.code == 0 && r.out == bName + "\n", "\(r.out) \(r.err)")
        #expect(!ws.exists("j.techo/" + bName))
        #expect(r.err.contains("removed 1 unused asset"))
        // What is left still renders, checks and undoes.
        #expect(try ws.run("check", "j.techo").code == 0)
        #expect(try ws.run("undo", "j.techo").code == 0)
        #expect(try ws.run("export", "j.techo", "-o", "p.png").code == 0)
        #expect(try ws.run("gc", "j.techo").out.isEmpty)
    }

    // MARK: check probes every asset (issue 15, item 2)

    /// Puts `bytes` into the bundle under their own hash and points image-1 at them.
    func replaceAsset(_ ws: Workspace, with bytes: [UInt8], ext: String) throws -> String {
        let page = try String(contentsOf: ws.url("j.techo/pages/p1.json"), encoding: .utf8)
        let old = "assets/" + SHA256.hex(try ws.bytes("s.png")) + ".png"
        let new = "assets/" + SHA256.hex(bytes) + "." + ext
        try ws.write("j.techo/" + new, bytes)
        try page.replacingOccurrences(of: old, with: new).write(to: ws.url("j.techo/pages/p1.json"), atomically: true, encoding: .utf8)
        return new
    }

    static func onebitPNG(_ w: UInt32, _ h: UInt32) -> [UInt8] {
        let row = 1 + (Int(w) + 7) / 8
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
            + LyingFiles.chunk("IHDR", LyingFiles.be32(w) + LyingFiles.be32(h) + [1, 0, 0, 0, 0])
            + LyingFiles.chunk("IDAT", LyingFiles.zlibZeros(row * Int(h))) + LyingFiles.chunk("IEND", [])
    }

    static func truncatedJPEG() throws -> [UInt8] {
        var pm = Pixmap(width: 256, height: 256)
        for y in 0..<256 { for x in 0..<256 { pm.setPixel(x, y, (r: UInt8(x), g: UInt8(y), b: UInt8((x * y) & 255), a: 255)) } }
        let jpeg = try JPEGEncoder.encode(pm, quality: 90, name: "t.jpg")
        return Array(jpeg.prefix(jpeg.count * 2 / 3))
    }

    @Test(arguments: ["header-100000", "complete-40000x1", "onebit-10001", "truncated-jpeg"])
    func checkRefusesAnAssetExportWouldRefuse(kind: String) throws {
        let ws = try Workspace()
        try journal(ws)
        #expect(try ws.run("check", "j.techo").code == 0)
        let bytes: [UInt8]
        var ext = "png"
        switch kind {
        case "header-100000": bytes = LyingFiles.png(width: 100_000, height: 100_000, idat: LyingFiles.zlibZeros(4096))
        case "complete-40000x1": bytes = try PNGEncoder.encode(Pixmap(width: 40_000, height: 1), name: "wide")
        case "onebit-10001": bytes = Self.onebitPNG(10_001, 10_001)
        default: bytes = try Self.truncatedJPEG(); ext = "jpg"
        }
        let path = try replaceAsset(ws, with: bytes, ext: ext)
        #expect(try ws.run("export", "j.techo", "-o", "p.png").code != 0)
        let r = try ws.run("check", "j.techo")
        #expect(r.code == 1, "\(kind): \(r.code) \(r.out) \(r.err)")
        #expect(r.out.contains(path), "\(kind): \(r.out)")
        #expect(r.out.contains(kind == "truncated-jpeg" ? "truncated" : "limit"), "\(kind): \(r.out)")
        #expect(r.err.contains("1 problem"), "\(r.err)")
    }

    // MARK: -o names an existing folder (issue 15, item 3)

    @Test func anExistingFolderGivenAsOutputIsWrittenInto() throws {
        let ws = try Workspace()
        try journal(ws)
        try FileManager.default.createDirectory(at: ws.url("out.png"), withIntermediateDirectories: false)
        var r = try ws.run("export", "j.techo", "-o", "out.png")
        #expect(r.code == 0, "\(r.err)")
        #expect(ws.exists("out.png/01-p1.png"))
        #expect(try ws.run("page", "add", "j.techo").code == 0)
        r = try ws.run("export", "j.techo", "-o", "out.png")
        #expect(r.code == 0, "\(r.err)")
        #expect(ws.exists("out.png/02-p2.png"))
        try ws.write("m.json", #"{"pages":[{"id":"a","size":"100x100"},{"id":"b","size":"100x100"}]}"#)
        try FileManager.default.createDirectory(at: ws.url("shots.png"), withIntermediateDirectories: false)
        r = try ws.run("build", "m.json", "-o", "shots.png")
        #expect(r.code == 0, "\(r.err)")
        #expect(ws.exists("shots.png/01-a.png") && ws.exists("shots.png/02-b.png"))
        // One page into an existing folder with a .png name, too.
        try ws.write("one.json", #"{"pages":[{"id":"a","size":"100x100"}]}"#)
        r = try ws.run("build", "one.json", "-o", "shots.png")
        #expect(r.code == 0, "\(r.err)")
        // A folder where the page's own file would go is refused by name, and nothing is written.
        try FileManager.default.createDirectory(at: ws.url("o/01-p1.png"), withIntermediateDirectories: true)
        r = try ws.run("export", "j.techo", "--page", "p1", "-o", "o")
        #expect(r.code == 73, "\(r.code) \(r.err)")
        #expect(r.err.contains("01-p1.png: is a folder"), "\(r.err)")
        // A file where the output folder would go is refused by name.
        try ws.write("flat", "x")
        r = try ws.run("export", "j.techo", "-o", "flat")
        #expect(r.code == 73 && r.err.contains("flat: cannot create the output folder"), "\(r.err)")
    }

    // MARK: help of command groups (issue 15, item 6)

    @Test(arguments: ["add", "page"])
    func groupHelpListsSubcommands(word: String) throws {
        let ws = try Workspace()
        for flag in ["--help", "-h"] {
            let r = try ws.run(word, flag)
            #expect(r.code == 0, "\(r.err)")
            let subs = word == "add" ? ["image", "photo", "sticker", "text", "washi"] : ["add", "list", "rm", "move"]
            for s in subs {
                #expect(r.out.contains("\n  \(word) \(s) "), "\(word) \(flag): \(r.out)")
            }
            #expect(r.out.split(separator: "\n").filter { $0.hasPrefix("  \(word) ") }.count == subs.count, "\(r.out)")
        }
        #expect(try ws.run(word, "--bogus").code == 64)
    }

    // MARK: A rebuild does only what changed (issue 13, item 3)

    /// Sets a file's modification time an hour back, outside the racy window.
    func age(_ ws: Workspace, _ relative: String) throws {
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -3600)], ofItemAtPath: ws.url(relative).path)
    }

    @Test func anUnchangedRebuildWritesNothingAndReadsNoSource() throws {
        let ws = try Workspace()
        try ws.png("a.png", 20, 10, rgba: (200, 10, 10, 255))
        try ws.jpeg("b.jpg", 30, 20, rgb: (10, 10, 200))
        try age(ws, "a.png"); try age(ws, "b.jpg")
        let manifest = #"{"pages":[{"id":"a","size":"100x100","elements":[{"type":"image","src":"a.png"},{"type":"photo","src":"b.jpg","at":[30,30]}]}]}"#
        try ws.write("m.json", manifest)
        #expect(try ws.run("build", "m.json", "--no-export").code == 0)
        #expect(ws.exists("m.techo/sources.json"))
        let before = ws.snapshot("m.techo")
        let pageDate = try FileManager.default.attributesOfItem(atPath: ws.url("m.techo/pages/a.json").path)[.modificationDate] as? Date
        // Unchanged: no history step, no file rewritten.
        let r = try ws.run("build", "m.json", "--no-export")
        #expect(r.code == 0, "\(r.err)")
        #expect(ws.snapshot("m.techo") == before)
        #expect(try FileManager.default.attributesOfItem(atPath: ws.url("m.techo/pages/a.json").path)[.modificationDate] as? Date == pageDate)
        #expect(try ws.run("history", "m.techo").out == "no history yet\n")
        // A source whose size, mtime and inode are unchanged is not read: overwrite a.png in
        // place with other bytes of the same size and restore its mtime (git's rule, and its
        // documented limit), and the rebuild keeps the recorded asset.
        let a = try ws.bytes("a.png")
        var st = stat()
        #expect(stat(ws.url("a.png").path, &st) == 0)
        var other = a
        other[other.count - 20] ^= 0xFF  // inside the image data: same size, now corrupt
        let handle = try FileHandle(forWritingTo: ws.url("a.png"))
        try handle.write(contentsOf: other)
        try handle.close()
        var times = [st.st_atim, st.st_mtim]
        #expect(utimensat(AT_FDCWD, ws.url("a.png").path, &times, 0) == 0)
        #expect(try ws.run("build", "m.json", "--no-export").code == 0)
        #expect(ws.snapshot("m.techo") == before)
        // Touched (another mtime), it is read again: now corrupt, the build refuses it by name.
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -1800)], ofItemAtPath: ws.url("a.png").path)
        let changed = try ws.run("build", "m.json", "--no-export")
        #expect(changed.code == 65 && changed.err.contains("a.png"), "a touched file must be read again: \(changed.code) \(changed.err)")
        #expect(ws.snapshot("m.techo") == before)
    }

    @Test func aDamagedBackgroundOrTapePatternIsRefusedByBuildBeforeAnythingIsWritten() throws {
        let ws = try Workspace()
        try ws.write("cut.jpg", try Self.truncatedJPEG())
        try ws.write("bg.json", #"{"pages":[{"id":"a","size":"100x100","background":{"image":"cut.jpg"}}]}"#)
        var r = try ws.run("build", "bg.json", "--no-export")
        #expect(r.code == 65 && r.err.contains("cut.jpg") && r.err.contains("pages[0].background.image"), "\(r.code) \(r.err)")
        #expect(!ws.exists("bg.techo"))
        let washi = #"{"type":"washi","from":[0,0],"to":[50,0],"pattern":"cut.jpg"}"#
        try ws.write("tape.json", #"{"pages":[{"id":"a","size":"100x100","elements":["# + washi + "]}]}")
        r = try ws.run("build", "tape.json", "--no-export")
        #expect(r.code == 65 && r.err.contains("cut.jpg"), "\(r.code) \(r.err)")
        #expect(!ws.exists("tape.techo"))
    }

    @Test func aRebuildWithOneElementMovedMakesOneStepAndCopiesNoAsset() throws {
        let ws = try Workspace()
        try ws.png("a.png", 20, 10, rgba: (200, 10, 10, 255))
        try age(ws, "a.png")
        try ws.write("m.json", #"{"pages":[{"id":"a","size":"100x100","elements":[{"type":"image","src":"a.png","at":[10,10]}]}]}"#)
        #expect(try ws.run("build", "m.json", "--no-export").code == 0)
        let asset = "m.techo/assets/" + SHA256.hex(try ws.bytes("a.png")) + ".png"
        let assetInode = try FileManager.default.attributesOfItem(atPath: ws.url(asset).path)[.systemFileNumber] as? Int
        try ws.write("m.json", #"{"pages":[{"id":"a","size":"100x100","elements":[{"type":"image","src":"a.png","at":[40,10]}]}]}"#)
        #expect(try ws.run("build", "m.json", "--no-export").code == 0)
        #expect(try ws.run("history", "m.techo").out.split(separator: "\n").count == 1)
        #expect(try FileManager.default.attributesOfItem(atPath: ws.url(asset).path)[.systemFileNumber] as? Int == assetInode)
        #expect(try ws.run("check", "m.techo").code == 0)
        #expect(try ws.run("undo", "m.techo").code == 0)
    }
}
