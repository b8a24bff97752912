// End to end: no page id, element id, asset or manifest path makes techo read or write outside
// the places it should (`..`, absolute paths, NUL bytes, symlinks).
import Foundation
import Testing

@Suite struct HostilePathsTests {
    @discardableResult
    func journal(_ ws: Workspace) throws -> [UInt8] {
        try ws.png("s.png", 10, 10, rgba: (0, 0, 0, 255))
        #expect(try ws.run("init", "j.techo", "--size", "200x200").code == 0)
        #expect(try ws.run("add", "image", "j.techo", "p1", "s.png").code == 0)
        return try ws.bytes("j.techo/pages/p1.json")
    }

    // (A NUL byte cannot reach techo through argv; manifests test it below.)
    @Test(arguments: [
        ["page", "add", "j.techo", "--id", "../x"],
        ["page", "add", "j.techo", "--id", "../../etc"],
        ["page", "add", "j.techo", "--id", "/tmp/x"],
        ["page", "add", "j.techo", "--id", "a/b"],
        ["page", "add", "j.techo", "--id", ".."],
        ["add", "image", "j.techo", "p1", "s.png", "--id", "../x"],
        ["add", "text", "j.techo", "p1", "hi", "--id", "../../x"],
        ["show", "j.techo", "../p1"],
        ["add", "text", "j.techo", "../../p1", "hi"],
        ["export", "j.techo", "--page", "../p1"],
    ])
    func idsCannotBePaths(args: [String]) throws {
        let ws = try Workspace()
        let before = try journal(ws)
        let files = ws.snapshot(".").keys.sorted()
        let (r, timedOut) = try ws.run(timeout: 20, args)
        #expect(!timedOut)
        #expect(r.code == 64 || r.code == 65 || r.code == 66, "\(args): \(r.code) \(r.err)")
        #expect(try ws.bytes("j.techo/pages/p1.json") == before)
        #expect(ws.snapshot(".").keys.sorted() == files, "\(args) wrote a file")
        #expect(!FileManager.default.fileExists(atPath: ws.dir.deletingLastPathComponent().appendingPathComponent("x.json").path))
    }

    @Test(arguments: [
        (#""id":"../../etc""#, "pages[0].id"),
        (#""id":"a/b""#, "pages[0].id"),
        (#""id":"..""#, "pages[0].id"),
        (#""id":"a\u0000b""#, "pages[0].id"),
    ])
    func manifestPageIdsCannotBePaths(id: String, path: String) throws {
        let ws = try Workspace()
        try ws.write("m.json", "{\"pages\":[{\(id)}]}")
        let r = try ws.run(timeout: 20, ["build", "m.json"]).result
        #expect(r.code == 65, "\(r.err)")
        #expect(r.err.contains(path), "\(r.err)")
        #expect(!ws.exists("m.techo"))
    }

    @Test(arguments: ["/etc/passwd", "../x.png", "a/../../x.png", "~/x.png", "s.png\u{0}.txt", "./../x.png", "link.png", "linkdir/s.png"])
    func manifestSourcesStayInTheManifestFolder(src: String) throws {
        let ws = try Workspace()
        // The manifest lives in a subfolder; an image sits just outside it, reachable by "..".
        try FileManager.default.createDirectory(at: ws.url("m"), withIntermediateDirectories: true)
        try ws.png("x.png", 8, 8, rgba: (9, 9, 9, 255))
        try ws.png("m/s.png", 8, 8, rgba: (1, 1, 1, 255))
        try FileManager.default.createSymbolicLink(atPath: ws.url("m/link.png").path, withDestinationPath: ws.url("x.png").path)
        try FileManager.default.createSymbolicLink(atPath: ws.url("m/linkdir").path, withDestinationPath: ws.dir.path)
        try ws.png("s.png", 8, 8, rgba: (1, 1, 1, 255))
        let escaped = src.replacingOccurrences(of: "\u{0}", with: "\\u0000")
        try ws.write("m/m.json", #"{"pages":[{"id":"a","elements":[{"type":"image","src":""# + escaped + #""}]}]}"#)
        let r = try ws.run(timeout: 20, ["build", "m/m.json"]).result
        #expect(r.code == 65, "\(src): \(r.code) \(r.err)")
        #expect(r.err.contains("pages[0].elements[0].src"), "\(src): \(r.err)")
        #expect(!ws.exists("m/m.techo"))
        // The same paths in a page background and a washi pattern.
        try ws.write("m/m.json", #"{"pages":[{"id":"a","background":{"image":{"src":""# + escaped + #""}}}]}"#)
        let b = try ws.run(timeout: 20, ["build", "m/m.json"]).result
        #expect(b.code == 65, "\(src): \(b.code) \(b.err)")
        #expect(!ws.exists("m/m.techo"))
    }

    @Test func aSymlinkInsideTheManifestFolderThatStaysInsideIsFine() throws {
        let ws = try Workspace()
        try FileManager.default.createDirectory(at: ws.url("m/pics"), withIntermediateDirectories: true)
        try ws.png("m/pics/s.png", 8, 8, rgba: (1, 1, 1, 255))
        try FileManager.default.createSymbolicLink(atPath: ws.url("m/alias.png").path, withDestinationPath: "pics/s.png")
        try ws.write("m/m.json", #"{"page":{"size":"100x100"},"pages":[{"id":"a","elements":[{"type":"image","src":"alias.png"}]}]}"#)
        let r = try ws.run(timeout: 30, ["build", "m/m.json"]).result
        #expect(r.code == 0, "\(r.err)")
    }

    @Test func pageOrderNamingAPathIsRefused() throws {
        let ws = try Workspace()
        try journal(ws)
        // A journal.json edited by hand to list a page outside the bundle.
        try ws.write("evil.json", Array(#"{"id":"p1","elements":[]}"#.utf8))
        var j = String(decoding: try ws.bytes("j.techo/journal.json"), as: UTF8.self)
        j = j.replacingOccurrences(of: "\"p1\"", with: "\"../../evil\"")
        try ws.write("j.techo/journal.json", j)
        for args in [["show", "j.techo"], ["check", "j.techo"], ["export", "j.techo"], ["add", "text", "j.techo", "p1", "x"]] {
            let r = try ws.run(timeout: 20, args).result
            #expect(r.code != 0, "\(args)")
            #expect((r.out + r.err).contains("journal.json"), "\(args): \(r.out) \(r.err)")
        }
    }

    @Test func anAssetPathInAPageFileCannotEscape() throws {
        let ws = try Workspace()
        try journal(ws)
        var page = String(decoding: try ws.bytes("j.techo/pages/p1.json"), as: UTF8.self)
        let asset = try #require(ws.snapshot("j.techo").keys.first { $0.hasPrefix("assets/") })
        for evil in ["../../s.png", "/etc/passwd", "assets/../../s.png"] {
            let edited = page.replacingOccurrences(of: asset, with: evil)
            #expect(edited != page)
            try ws.write("j.techo/pages/p1.json", edited)
            for args in [["check", "j.techo"], ["export", "j.techo", "-o", "out.png"]] {
                let r = try ws.run(timeout: 20, args).result
                #expect(r.code != 0, "\(evil) \(args)")
                #expect((r.out + r.err).contains("pages/p1.json"), "\(evil) \(args): \(r.out) \(r.err)")
            }
            #expect(!ws.exists("out.png"))
        }
        page = ""
    }
}

@Suite struct HostileBundleLinkTests {
    /// Journal files replaced by symbolic links leading out of the bundle are refused, naming the
    /// file, even when the file they lead to is a valid page.
    @Test(arguments: ["pages/p1.json", "journal.json", "history/state.json"])
    func aJournalFileReplacedByALinkIsRefused(file: String) throws {
        let ws = try Workspace()
        #expect(try ws.run("init", "j.techo", "--size", "100x100").code == 0)
        #expect(try ws.run("add", "text", "j.techo", "p1", "hi").code == 0)
        try FileManager.default.copyItem(at: ws.url("j.techo/\(file)"), to: ws.url("outside.json"))
        try FileManager.default.removeItem(at: ws.url("j.techo/\(file)"))
        try FileManager.default.createSymbolicLink(atPath: ws.url("j.techo/\(file)").path, withDestinationPath: ws.url("outside.json").path)
        let outside = try ws.bytes("outside.json")
        // (show does not read the history, so it only meets the page and journal files.)
        let commands = [["show", "j.techo", "p1"], ["add", "text", "j.techo", "p1", "more"], ["check", "j.techo"], ["undo", "j.techo"]]
        for args in commands where !(file.hasPrefix("history/") && args[0] == "show") {
            let r = try ws.run(timeout: 20, args).result
            #expect(r.code != 0, "\(file) \(args)")
            #expect((r.out + r.err).contains(file) && (r.out + r.err).contains("symbolic link"), "\(file) \(args): \(r.out) \(r.err)")
        }
        #expect(try ws.bytes("outside.json") == outside)
    }

    @Test func aLockFileLinkedOutsideCreatesNothingThere() throws {
        let ws = try Workspace()
        #expect(try ws.run("init", "j.techo", "--size", "100x100").code == 0)
        try? FileManager.default.removeItem(at: ws.url("j.techo/.lock"))
        try FileManager.default.createSymbolicLink(atPath: ws.url("j.techo/.lock").path, withDestinationPath: ws.url("created-outside").path)
        let r = try ws.run(timeout: 20, ["add", "text", "j.techo", "p1", "x"]).result
        #expect(r.code != 0)
        #expect(r.err.contains(".lock"), "\(r.err)")
        #expect(!ws.exists("created-outside"))
    }
}
