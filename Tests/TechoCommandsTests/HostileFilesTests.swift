// End to end: files that lie (truncated, corrupt, mislabelled, empty, folders, FIFOs, symlinks,
// unreadable, a disk that fills up) are errors naming the file, with a non-zero exit, no hang,
// and nothing half-written.
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite struct HostileFilesTests {
    @discardableResult
    func journal(_ ws: Workspace) throws -> [UInt8] {
        try ws.png("s.png", 10, 10, rgba: (0, 0, 0, 255))
        #expect(try ws.run("init", "j.techo", "--size", "200x200").code == 0)
        #expect(try ws.run("add", "image", "j.techo", "p1", "s.png").code == 0)
        return try ws.bytes("j.techo/pages/p1.json")
    }

    enum Lie: String, CaseIterable {
        case truncatedHeader, truncatedData, badCRC, empty, gif, webp, text, jpegTruncated
    }

    func lyingBytes(_ lie: Lie, _ ws: Workspace) throws -> [UInt8] {
        let good = LyingFiles.noisePNG(48, 48)
        switch lie {
        case .truncatedHeader: return Array(good.prefix(20))
        case .truncatedData: return Array(good.prefix(good.count / 2))
        case .badCRC:
            var b = good
            b[b.count / 2] ^= 0x55  // inside IDAT: its CRC no longer matches
            return b
        case .empty: return []
        case .gif: return LyingFiles.gif
        case .webp: return LyingFiles.webp
        case .text: return Array("just some text, not an image\n".utf8)
        case .jpegTruncated:
            try ws.jpeg("full.jpg", 64, 64, rgb: (200, 20, 20))
            let j = try ws.bytes("full.jpg")
            return Array(j.prefix(j.count / 2))
        }
    }

    @Test(arguments: Lie.allCases)
    func lyingImageFilesAreRefusedNamingTheFile(lie: Lie) throws {
        let ws = try Workspace()
        let before = try journal(ws)
        try ws.write("liar.png", try lyingBytes(lie, ws))
        let (r, timedOut) = try ws.run(timeout: 20, ["add", "image", "j.techo", "p1", "liar.png"])
        #expect(!timedOut)
        #expect(r.code == 65 || r.code == 66, "\(lie): exit \(r.code) \(r.err)")
        #expect(r.err.contains("liar.png"), "\(lie): \(r.err)")
        #expect(try ws.bytes("j.techo/pages/p1.json") == before)
        #expect(ws.snapshot("j.techo").keys.filter { $0.hasPrefix("assets/") }.count == 1)
        // The same file through a manifest: an error with its JSON path, and no journal.
        try ws.write("m.json", #"{"page":{"size":"200x200"},"pages":[{"id":"a","elements":[{"type":"image","src":"liar.png"}]}]}"#)
        let b = try ws.run(timeout: 20, ["build", "m.json"]).result
        #expect(b.code == 65, "\(lie): exit \(b.code) \(b.err)")
        #expect(b.err.contains("liar.png"), "\(lie): \(b.err)")
        #expect(!ws.exists("m.techo"))
        #expect(!ws.exists("m-pages"))
    }

    @Test func aJPEGNamedPNGIsReadByItsContent() throws {
        let ws = try Workspace()
        try journal(ws)
        try ws.jpeg("photo.png", 32, 32, rgb: (10, 200, 10))
        let r = try ws.run("add", "image", "j.techo", "p1", "photo.png")
        #expect(r.code == 0, "\(r.err)")
        #expect(ws.snapshot("j.techo").keys.contains { $0.hasPrefix("assets/") && $0.hasSuffix(".jpg") })
        #expect(try ws.run("check", "j.techo").code == 0)
    }

    @Test func aFolderIsNotAFile() throws {
        let ws = try Workspace()
        let before = try journal(ws)
        try FileManager.default.createDirectory(at: ws.url("dir.png"), withIntermediateDirectories: true)
        for args in [
            ["add", "image", "j.techo", "p1", "dir.png"], ["draw", "j.techo", "p1", "--tool", "pencil", "--points-file", "dir.png"],
            ["gesture", "j.techo", "p1", "image-1", "--replay", "dir.png"], ["build", "dir.png"],
        ] {
            let (r, timedOut) = try ws.run(timeout: 20, args)
            #expect(!timedOut)
            #expect(r.code == 66 || r.code == 65, "\(args): \(r.code) \(r.err)")
            #expect(r.err.contains("dir.png"), "\(args): \(r.err)")
        }
        try ws.write("m.json", #"{"pages":[{"id":"a","elements":[{"type":"image","src":"dir.png"}]}]}"#)
        let b = try ws.run(timeout: 20, ["build", "m.json"]).result
        #expect(b.code == 65 && b.err.contains("dir.png"), "\(b.err)")
        #expect(try ws.bytes("j.techo/pages/p1.json") == before)
    }

    /// Every way techo reads a file, pointed at a FIFO nobody writes to: each must fail fast
    /// instead of blocking in open() or read().
    @Test func aFIFONeverHangs() throws {
        let ws = try Workspace()
        let before = try journal(ws)
        #expect(mkfifo(ws.url("fifo.png").path, 0o644) == 0)
        #expect(mkfifo(ws.url("fifo.json").path, 0o644) == 0)
        try ws.write("m.json", #"{"pages":[{"id":"a","elements":[{"type":"image","src":"fifo.png"}]}]}"#)
        let cases: [[String]] = [
            ["add", "image", "j.techo", "p1", "fifo.png"],
            ["add", "washi", "j.techo", "p1", "--from", "0,0", "--to", "50,0", "--pattern", "fifo.png"],
            ["background", "j.techo", "p1", "--image", "fifo.png"],
            ["draw", "j.techo", "p1", "--tool", "pencil", "--points-file", "fifo.json"],
            ["gesture", "j.techo", "p1", "image-1", "--replay", "fifo.json"],
            ["build", "fifo.json"],
            ["build", "m.json"],
        ]
        for args in cases {
            let (r, timedOut) = try ws.run(timeout: 10, args)
            #expect(!timedOut, "\(args) hung on a FIFO")
            #expect(r.code != 0, "\(args)")
            #expect(r.err.contains("fifo."), "\(args): \(r.err)")
        }
        #expect(try ws.bytes("j.techo/pages/p1.json") == before)
        // Inside the journal: a page file and an asset replaced by FIFOs.
        let asset = try #require(ws.snapshot("j.techo").keys.first { $0.hasPrefix("assets/") })
        try FileManager.default.removeItem(at: ws.url("j.techo/\(asset)"))
        #expect(mkfifo(ws.url("j.techo/\(asset)").path, 0o644) == 0)
        for args in [["check", "j.techo"], ["export", "j.techo", "-o", "out.png"]] {
            let (r, timedOut) = try ws.run(timeout: 10, args)
            #expect(!timedOut, "\(args) hung on a FIFO asset")
            #expect(r.code != 0, "\(args)")
            #expect((r.out + r.err).contains(asset), "\(args): \(r.out) \(r.err)")
        }
        #expect(!ws.exists("out.png"))
        try FileManager.default.removeItem(at: ws.url("j.techo/pages/p1.json"))
        #expect(mkfifo(ws.url("j.techo/pages/p1.json").path, 0o644) == 0)
        for args in [["show", "j.techo"], ["check", "j.techo"], ["add", "text", "j.techo", "p1", "x"]] {
            let (r, timedOut) = try ws.run(timeout: 10, args)
            #expect(!timedOut, "\(args) hung on a FIFO page")
            #expect(r.code != 0, "\(args)")
            #expect((r.out + r.err).contains("pages/p1.json"), "\(args): \(r.out) \(r.err)")
        }
    }

    @Test func anAssetSymlinkedOutsideTheJournalIsRefused() throws {
        let ws = try Workspace()
        try journal(ws)
        let asset = try #require(ws.snapshot("j.techo").keys.first { $0.hasPrefix("assets/") })
        // The outside file has the very bytes the asset should have: only its place is wrong.
        try FileManager.default.copyItem(at: ws.url("j.techo/\(asset)"), to: ws.url("outside.png"))
        try FileManager.default.removeItem(at: ws.url("j.techo/\(asset)"))
        try FileManager.default.createSymbolicLink(atPath: ws.url("j.techo/\(asset)").path, withDestinationPath: ws.url("outside.png").path)
        let c = try ws.run(timeout: 20, ["check", "j.techo"]).result
        #expect(c.code != 0)
        #expect((c.out + c.err).contains(asset) && (c.out + c.err).contains("outside"), "\(c.out) \(c.err)")
        let e = try ws.run(timeout: 20, ["export", "j.techo", "-o", "out.png"]).result
        #expect(e.code != 0)
        #expect(e.err.contains(asset), "\(e.err)")
        #expect(!ws.exists("out.png"))
    }

    /// Permission bits do not stop root, so where the suite runs as root (as `make test` does
    /// in a container) the one command runs as `nobody` through `setpriv` (util-linux, in
    /// Debian's base system), with the workspace opened to it; otherwise as this user.
    @Test func unreadableFilesAreRefused() throws {
        let ws = try Workspace()
        let before = try journal(ws)
        try ws.png("secret.png", 4, 4, rgba: (1, 2, 3, 255))
        let args = ["add", "image", "j.techo", "p1", "secret.png"]
        let r: RunResult
        if runningAsRoot {
            try openToAnyone(ws.dir)
            chmod(ws.url("secret.png").path, 0)
            r = try ws.runProcess("/usr/bin/setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", Workspace.binary.path] + args, timeout: 120).result
        } else {
            chmod(ws.url("secret.png").path, 0)
            r = try ws.run(timeout: 120, args).result
        }
        #expect(r.code == 66, "exit \(r.code): \(r.err)")
        #expect(r.err.contains("secret.png") && r.err.contains("Permission denied"), "\(r.err)")
        #expect(try ws.bytes("j.techo/pages/p1.json") == before)
    }

    /// Every folder and file under `dir` (and `dir`) readable and writable by anyone.
    func openToAnyone(_ dir: URL) throws {
        chmod(dir.path, 0o777)
        guard let e = FileManager.default.enumerator(atPath: dir.path) else { return }
        for case let rel as String in e {
            let path = dir.appendingPathComponent(rel).path
            var isDir: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: path, isDirectory: &isDir)
            chmod(path, isDir.boolValue ? 0o777 : 0o666)
        }
    }

    @Test func anUnreadableNonFileIsRefusedEvenAsRoot() throws {
        // Root reads any regular file, so stand in for "cannot be read" with something no one
        // can read as an image: a character device.
        let ws = try Workspace()
        let before = try journal(ws)
        try FileManager.default.createSymbolicLink(atPath: ws.url("dev.png").path, withDestinationPath: "/dev/zero")
        let (r, timedOut) = try ws.run(timeout: 10, ["add", "image", "j.techo", "p1", "dev.png"])
        #expect(!timedOut)
        #expect(r.code == 65 || r.code == 66, "\(r.err)")
        #expect(r.err.contains("dev.png"), "\(r.err)")
        #expect(try ws.bytes("j.techo/pages/p1.json") == before)
    }

    /// A full disk, simulated with RLIMIT_FSIZE (SIGXFSZ ignored, so write() fails with EFBIG):
    /// the export fails naming its file and leaves nothing under the final name nor a temp file;
    /// a save fails naming the journal file and leaves the journal as it was.
    @Test func aFullDiskLeavesNothingHalfWritten() throws {
        // 1 MiB of file size (2048 blocks of 512 bytes): room for the journal, its 640 KB asset
        // and the runtime (ThreadSanitizer's needs some), not for the page export of nine tiles
        // of noise (over 2 MB).
        let ws = try Workspace()
        #expect(try ws.run("init", "j.techo", "--size", "1200x1200").code == 0)
        try ws.write("noise.png", LyingFiles.noisePNG(400, 400))
        for x in [200, 600, 1000] {
            for y in [200, 600, 1000] {
                #expect(try ws.run("add", "image", "j.techo", "p1", "noise.png", "--at", "\(x),\(y)").code == 0)
            }
        }
        let before = try ws.bytes("j.techo/pages/p1.json")
        let e = try ws.shell("trap '' XFSZ; ulimit -f 2048; exec \"$TECHO\" export j.techo -o out.png").result
        #expect(e.code == 1, "\(e.code) \(e.err)")
        #expect(e.err.contains("out.png"), "\(e.err)")
        #expect(!ws.exists("out.png"))
        #expect(ws.snapshot(".").keys.allSatisfy { !$0.contains("out.png.tmp") }, "\(ws.snapshot(".").keys.sorted())")
        // The same export without the limit works, so the limit is what stopped it.
        #expect(try ws.run("export", "j.techo", "-o", "out.png").code == 0)
        #expect(try ws.bytes("out.png").count > 1 << 20)
        // A save whose asset does not fit.
        try ws.write("noise2.png", LyingFiles.noisePNG(700, 700))
        let mid = try ws.bytes("j.techo/pages/p1.json")
        #expect(mid == before)
        let a = try ws.shell("trap '' XFSZ; ulimit -f 2048; exec \"$TECHO\" add image j.techo p1 noise2.png").result
        #expect(a.code == 1, "\(a.code) \(a.err)")
        #expect(a.err.contains("assets/"), "\(a.err)")
        #expect(try ws.bytes("j.techo/pages/p1.json") == mid)
        let c = try ws.run("check", "j.techo")
        #expect(c.code == 0, "\(c.out) \(c.err)")
        #expect(try ws.run("history", "j.techo").out.split(separator: "\n").count == 9)
    }
}
