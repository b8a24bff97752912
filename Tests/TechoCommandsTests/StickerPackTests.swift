// Sticker packs end to end through the real binary: the built-in packs, a user's own packs in
// $XDG_DATA_HOME/techo/stickers, `techo add sticker`, manifests naming stickers, the copy a
// journal keeps, and refusals with their exit codes (docs/stickers.md).
import Foundation
import TechoModel
import Testing

@Suite struct StickerPackTests {
    /// A workspace whose sticker packs live in its own `data/` folder.
    struct Packs {
        let ws: Workspace
        var env: [String: String] { ["XDG_DATA_HOME": ws.url("data").path] }
        var folder: URL { ws.url("data/techo/stickers") }
        @discardableResult
        func run(_ args: String...) throws -> RunResult { try ws.run(args, environment: env) }
    }

    @Test func builtinPacksHoldAtLeastFortyEightStickersInFourPacks() throws {
        let p = Packs(ws: try Workspace())
        let list = try p.run("stickers", "list")
        #expect(list.code == 0, "\(list.err)")
        let rows = list.out.split(separator: "\n").map { $0.split(separator: "\t").map(String.init) }
        let builtin = rows.filter { $0.count == 3 && $0[2] == "built-in" }
        #expect(builtin.count >= 4)
        let total = builtin.compactMap { Int($0[1].split(separator: " ")[0]) }.reduce(0, +)
        #expect(total >= 48, "\(list.out)")
        let flowers = try p.run("stickers", "list", "flowers")
        #expect(flowers.code == 0)
        #expect(flowers.out.contains("flowers/daisy\tsvg\n"))
        // Each built-in sticker is a picture techo reads, with its size: every one can be added.
        #expect(try p.run("init", "j.techo").code == 0)
        for row in builtin {
            let names = try p.run("stickers", "list", row[0]).out.split(separator: "\n").map { String($0.split(separator: "\t")[0]) }
            for name in names {
                let r = try p.run("add", "sticker", "j.techo", "p1", name)
                #expect(r.code == 0, "\(name): \(r.err)")
            }
        }
    }

    @Test func userPackAddListRemove() throws {
        let p = Packs(ws: try Workspace())
        try p.ws.png("Tea Cup.png", 30, 20, rgba: (10, 120, 200, 255))
        try p.ws.jpeg("leaf_2.jpeg", 16, 16, rgb: (40, 160, 60))
        let add = try p.run("stickers", "add", "mine", "Tea Cup.png", "leaf_2.jpeg")
        #expect(add.code == 0, "\(add.err)")
        #expect(add.out == "mine/tea-cup\nmine/leaf-2\n")
        // Copies, stored under the extension the bytes say, and nothing half-written beside them.
        #expect(FileManager.default.contentsEqual(atPath: p.folder.appendingPathComponent("mine/tea-cup.png").path, andPath: p.ws.url("Tea Cup.png").path))
        #expect(FileManager.default.fileExists(atPath: p.folder.appendingPathComponent("mine/leaf-2.jpg").path))
        #expect(try FileManager.default.contentsOfDirectory(atPath: p.folder.appendingPathComponent("mine").path).sorted() == ["leaf-2.jpg", "tea-cup.png"])
        #expect(try p.run("stickers", "list").out.contains("mine\t2 stickers\tyours\n"))
        #expect(try p.run("stickers", "list", "mine").out == "mine/leaf-2\tjpg\nmine/tea-cup\tpng\n")

        // The same name again is refused unless --replace.
        let again = try p.run("stickers", "add", "mine", "Tea Cup.png")
        #expect(again.code == 1)
        #expect(again.err.contains("already has a sticker 'tea-cup'"))
        #expect(try p.run("stickers", "add", "mine", "Tea Cup.png", "--replace").code == 0)

        let rm = try p.run("stickers", "rm", "mine", "tea-cup")
        #expect(rm.code == 0)
        #expect(rm.out == "removed mine/tea-cup\n")
        #expect(try p.run("stickers", "list", "mine").out == "mine/leaf-2\tjpg\n")
        #expect(try p.run("stickers", "rm", "mine").code == 0)
        #expect(!FileManager.default.fileExists(atPath: p.folder.appendingPathComponent("mine").path))
        let gone = try p.run("stickers", "list", "mine")
        #expect(gone.code == 66)
        #expect(gone.err.contains("no sticker pack 'mine'"))
    }

    @Test func theJournalKeepsACopyAndRendersTheSameWithThePackGone() throws {
        let p = Packs(ws: try Workspace())
        try p.ws.png("dot.png", 40, 40, rgba: (220, 40, 40, 255))
        #expect(try p.run("stickers", "add", "mine", "dot.png").code == 0)
        #expect(try p.run("init", "j.techo", "--size", "300x200", "--dpi", "100").code == 0)
        let a = try p.run("add", "sticker", "j.techo", "p1", "mine/dot", "--at", "80,60", "--scale", "2", "--rotate", "10")
        #expect(a.code == 0, "\(a.err)")
        #expect(a.out == "image-1\n")
        let b = try p.run("add", "sticker", "j.techo", "p1", "flowers/daisy", "--at", "220,120", "--width", "90")
        #expect(b.code == 0, "\(b.err)")
        let page = try p.ws.storedPage("j.techo/pages/p1.json")
        #expect(page.elements.count == 2)
        #expect(abs(page.elements[0].placement.scale - 2) < 1e-9)
        #expect(try p.ws.run("history", "j.techo").out.contains("add sticker mine/dot"))
        #expect(try p.run("export", "j.techo", "-o", "before.png").code == 0)
        let before = try p.ws.image("before.png")
        #expect(Workspace.straight(before, 80, 60) == (220, 40, 40, 255))

        // The pack is removed and built-in packs are hidden (TECHO_RESOURCES points at an empty
        // folder): the page still renders byte for byte the same, from the journal's own copies.
        #expect(try p.run("stickers", "rm", "mine").code == 0)
        try FileManager.default.createDirectory(at: p.ws.url("empty/stickers"), withIntermediateDirectories: true)
        var env = p.env
        env["TECHO_RESOURCES"] = p.ws.url("empty").path
        #expect(try p.ws.run(["stickers", "list", "flowers"], environment: env).code == 66)
        let after = try p.ws.run(["export", "j.techo", "-o", "after.png", "--force"], environment: env)
        #expect(after.code == 0, "\(after.err)")
        #expect(try p.ws.bytes("before.png") == p.ws.bytes("after.png"))
        #expect(try p.ws.run(["check", "j.techo"], environment: env).code == 0)
    }

    @Test func manifestsNameStickersAsPackSlashName() throws {
        let p = Packs(ws: try Workspace())
        try p.ws.png("star.png", 20, 10, rgba: (250, 200, 0, 255))
        #expect(try p.run("stickers", "add", "mine", "star.png").code == 0)
        let manifest = """
            {"page": {"size": "400x300", "dpi": 100},
             "pages": [{"id": "p1", "elements": [
               {"type": "image", "sticker": "mine/star", "at": [100, 100], "width": 60},
               {"type": "image", "sticker": "weather/sun", "at": [300, 150], "height": 80}]}]}
            """
        try Data(manifest.utf8).write(to: p.ws.url("m.json"))
        let r = try p.run("build", "m.json", "--no-export")
        #expect(r.code == 0, "\(r.err)")
        let page = try p.ws.storedPage("m.techo/pages/p1.json")
        #expect(page.elements.count == 2)
        #expect(abs(page.elements[0].placement.scale - 3) < 1e-9)
        let assets = try FileManager.default.contentsOfDirectory(atPath: p.ws.url("m.techo/assets").path)
        #expect(assets.contains { $0.hasSuffix(".png") } && assets.contains { $0.hasSuffix(".svg") })

        // Every bad sticker is reported with its JSON path, and nothing is written.
        let bad = """
            {"pages": [{"elements": [
               {"type": "image", "sticker": "mine/nope"},
               {"type": "image", "sticker": "Not A Name"},
               {"type": "image", "sticker": "mine/star", "src": "star.png"}]}]}
            """
        try Data(bad.utf8).write(to: p.ws.url("bad.json"))
        let b = try p.run("build", "bad.json")
        #expect(b.code == 65)
        #expect(b.err.contains("pages[0].elements[0].sticker: sticker: pack 'mine' has no sticker 'nope'; it has: star"), "\(b.err)")
        #expect(b.err.contains("pages[0].elements[1].sticker: sticker: expected PACK/NAME"), "\(b.err)")
        #expect(b.err.contains("pages[0].elements[2].src: give \"src\" or \"sticker\", not both"), "\(b.err)")
        #expect(!p.ws.exists("bad.techo"))
    }

    @Test func badInputsAreNamedWithTheirExitCodes() throws {
        let p = Packs(ws: try Workspace())
        try p.ws.png("ok.png", 8, 8, rgba: (1, 2, 3, 255))
        try Data("not a picture".utf8).write(to: p.ws.url("notes.png"))
        try p.ws.png("日記.png", 8, 8, rgba: (1, 2, 3, 255))
        #expect(try p.run("init", "j.techo").code == 0)
        let cases: [([String], Int32, String)] = [
            (["stickers", "add", "flowers", "ok.png"], 64, "'flowers' is a built-in pack"),
            (["stickers", "add", "My Pack", "ok.png"], 64, "PACK (argument 3): 'My Pack': a pack name must be"),
            (["stickers", "add", "mine"], 64, "missing FILE"),
            (["stickers", "add", "mine", "ok.png", "notes.png"], 65, "notes.png"),
            (["stickers", "add", "mine", "missing.png"], 66, "missing.png: no such file"),
            (["stickers", "add", "mine", "日記.png"], 65, "no sticker name can be made of this file's name"),
            (["stickers", "rm", "flowers", "daisy"], 1, "built-in stickers cannot be removed"),
            (["stickers", "rm", "nothere"], 66, "no sticker pack 'nothere'"),
            (["add", "sticker", "j.techo", "p1", "daisy"], 64, "PACK/NAME (argument 5): expected PACK/NAME"),
            (["add", "sticker", "j.techo", "p1", "flowers/nope"], 66, "pack 'flowers' has no sticker 'nope'; it has: clover, daisy"),
            (["add", "sticker", "j.techo", "p1", "nopack/x"], 66, "no sticker pack 'nopack'"),
            (["add", "sticker", "j.techo", "p9", "flowers/daisy"], 66, "PAGE (argument 4)"),
            (["add", "sticker", "j.techo", "p1", "flowers/daisy", "--scale", "0"], 64, "--scale"),
            (["add", "sticker", "j.techo", "p1", "flowers/daisy", "--frame", "polaroid"], 64, "add sticker: unknown option '--frame'"),
        ]
        for (args, code, message) in cases {
            let r = try p.ws.run(args, environment: p.env)
            #expect(r.code == code, "\(args): exit \(r.code), \(r.err)")
            #expect(r.err.contains(message), "\(args): \(r.err)")
        }
        // The refused batch copied nothing, not even its good file.
        #expect(!FileManager.default.fileExists(atPath: p.folder.appendingPathComponent("mine/ok.png").path))
        // A folder with a built-in pack's name is not read, and `list` says why.
        try FileManager.default.createDirectory(at: p.folder.appendingPathComponent("flowers"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: p.ws.url("ok.png"), to: p.folder.appendingPathComponent("flowers/daisy.png"))
        let list = try p.run("stickers", "list")
        #expect(list.err.contains("is not read: 'flowers' is a built-in pack's name"))
        #expect(try p.run("stickers", "list", "flowers").out.contains("flowers/daisy\tsvg\n"))
        // Nothing was added to the journal by the refused commands.
        #expect(try p.ws.storedPage("j.techo/pages/p1.json").elements.isEmpty)
    }
}
