// End to end: an export only reads its journal (docs/decisions/reading.md). It writes nothing
// into the bundle, not even the lock file, so a journal in a folder the user cannot write (or on
// a read-only volume) exports like any other.
import Foundation
import TechoTestSupport
import Testing

@Suite struct ReadOnlyExportTests {
    /// A journal of two pages with a sticker and a photo, its lock file removed (as a journal
    /// copied without hidden files, or never opened, has none).
    func journal() throws -> Workspace {
        let ws = try Workspace()
        try ws.png("s.png", 24, 16, rgba: (200, 40, 40, 255))
        try ws.jpeg("photo.jpg", 40, 30, rgb: (30, 90, 200))
        for args in [
            ["init", "j.techo", "--size", "160x120", "--dpi", "72"], ["page", "add", "j.techo"],
            ["add", "image", "j.techo", "p1", "s.png", "--at", "40,40"], ["add", "photo", "j.techo", "p2", "photo.jpg", "--at", "60,60"],
        ] {
            let r = try ws.run(args)
            #expect(r.code == 0, "techo \(args.joined(separator: " ")): \(r.err)")
        }
        try FileManager.default.removeItem(at: ws.url("j.techo/.lock"))
        return ws
    }

    /// Every entry of the bundle: path → inode, modification time, size.
    static func tree(_ ws: Workspace) -> [String: [Int]] {
        var out: [String: [Int]] = [:]
        let root = ws.url("j.techo")
        func visit(_ dir: URL, _ prefix: String) {
            var st = stat()
            if lstat(dir.path, &st) == 0 { out[prefix.isEmpty ? "." : prefix] = [Int(st.st_ino), st.st_mtim.tv_sec * 1_000_000_000 + st.st_mtim.tv_nsec] }
            for name in (try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? [] {
                let u = dir.appendingPathComponent(name)
                guard lstat(u.path, &st) == 0 else { continue }
                out[prefix + name] = [Int(st.st_ino), st.st_mtim.tv_sec * 1_000_000_000 + st.st_mtim.tv_nsec, Int(st.st_size)]
                if st.st_mode & S_IFMT == S_IFDIR { visit(u, prefix + name + "/") }
            }
        }
        visit(root, "")
        return out
    }

    /// Holds even for root, whom file modes do not stop: the export makes no lock file and
    /// changes no file or folder of the bundle, and still writes every page.
    @Test func anExportWritesNothingIntoTheJournal() throws {
        let ws = try journal()
        let before = Self.tree(ws)
        for args in [["export", "j.techo", "-o", "out"], ["export", "j.techo", "--page", "p2", "-o", "p2.jpg"], ["export", "j.techo", "-o", "j.pdf"]] {
            let r = try ws.run(args)
            #expect(r.code == 0, "techo \(args.joined(separator: " ")): \(r.err)")
        }
        #expect(ws.exists("out/01-p1.png") && ws.exists("out/02-p2.png") && ws.exists("p2.jpg") && ws.exists("j.pdf"))
        #expect(!ws.exists("j.techo/.lock"), "the export made the journal's lock file")
        #expect(Self.tree(ws) == before, "the export changed the journal's files")
    }

    /// How to run techo as a user the journal's modes stop: techo itself when this process is
    /// not root; as root (file modes do not stop root) through `setpriv` as `nobody`, when
    /// there is a `setpriv`; otherwise the test cannot check anything and is not run.
    static let unprivileged: [String]? = {
        if geteuid() != 0 { return [] }
        let setpriv = ["/usr/bin/setpriv", "/bin/setpriv"].first { FileManager.default.isExecutableFile(atPath: $0) }
        return setpriv.map { [$0, "--reuid=65534", "--regid=65534", "--clear-groups"] }
    }()

    @Test(.enabled(if: unprivileged != nil, "running as root without setpriv: file modes cannot stop this process"))
    func aJournalInAFolderNoOneMayWriteExports() throws {
        let ws = try journal()
        // Read-only for everyone, the lock file too (made again here, as a used journal has it).
        FileManager.default.createFile(atPath: ws.url("j.techo/.lock").path, contents: nil)
        let all = try FileManager.default.subpathsOfDirectory(atPath: ws.url("j.techo").path).map { ws.url("j.techo/\($0)") } + [ws.url("j.techo")]
        for u in all {
            var isDir: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: u.path, isDirectory: &isDir)
            try FileManager.default.setAttributes([.posixPermissions: isDir.boolValue ? 0o555 : 0o444], ofItemAtPath: u.path)
        }
        defer { for u in all { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: u.path) } }
        // The pages go to a folder the unprivileged user may write.
        try FileManager.default.createDirectory(at: ws.url("out"), withIntermediateDirectories: true)
        for u in [ws.dir, ws.url("out")] { try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: u.path) }
        let prefix = Self.unprivileged!
        let command = prefix + [Workspace.binary.path, "export", "j.techo", "-o", "out"]
        let r = try ChildProcess.run(URL(fileURLWithPath: command[0]), Array(command.dropFirst()), in: ws.dir)
        #expect(r.code == 0, "export of a read-only journal: exit \(r.code): \(r.err)")
        #expect(ws.exists("out/01-p1.png") && ws.exists("out/02-p2.png"))
        #expect(try ws.bytes("out/02-p2.png").count > 100)
    }
}
