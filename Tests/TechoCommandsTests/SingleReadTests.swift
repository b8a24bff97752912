// End to end: an import reads each source file once (docs/decisions/sources.md). The kernel
// counts for us: inotify reports every open of a watched file, whoever opens it, so a build or an
// `add` that opened a picture again (to copy it into the journal, or to draw the page from it)
// shows as a second open.
import Foundation
import TechoCodecs
import TechoRaster
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Counts the opens of some files while it watches them.
final class OpenCounter {
    private let fd: Int32
    private var names: [Int32: String] = [:]

    /// Watches each of `paths` (they must exist).
    init(_ paths: [String]) throws {
        fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard fd >= 0 else { throw CocoaError(.fileReadUnknown) }
        for p in paths {
            // Closes too: inotify merges an event into the one before it when they are the
            // same and unread, so two opens in a row would count as one.
            let wd = inotify_add_watch(fd, p, UInt32(IN_OPEN | IN_CLOSE_NOWRITE | IN_CLOSE_WRITE))
            guard wd >= 0 else { throw CocoaError(.fileReadNoSuchFile) }
            names[wd] = (p as NSString).lastPathComponent
        }
    }

    deinit { close(fd) }

    /// The opens seen so far, by file name (every watched file listed, 0 when never opened).
    func opens() -> [String: Int] {
        var counts = Dictionary(uniqueKeysWithValues: names.values.map { ($0, 0) })
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            guard n > 0 else { break }
            var i = 0
            while i + 16 <= n {
                let (wd, mask, len) = buffer.withUnsafeBytes { b in
                    (
                        b.loadUnaligned(fromByteOffset: i, as: Int32.self), b.loadUnaligned(fromByteOffset: i + 4, as: UInt32.self),
                        Int(b.loadUnaligned(fromByteOffset: i + 12, as: UInt32.self))
                    )
                }
                if mask & UInt32(IN_OPEN) != 0, let name = names[wd] { counts[name, default: 0] += 1 }
                i += 16 + len
            }
        }
        return counts
    }
}

@Suite struct SingleReadTests {
    @Test func aBuildOpensEachSourceFileOnce() throws {
        let ws = try Workspace()
        try ws.jpeg("plain.jpg", 96, 64, rgb: (40, 120, 200))
        let plain = try ws.bytes("plain.jpg")
        try ws.write("gps.jpg", Array(plain[0..<2]) + FuzzChecksTests.gpsAPP1 + Array(plain[2...]))
        try ws.png("s.png", 24, 16, rgba: (200, 40, 40, 255))
        try ws.write(
            "m.json",
            """
            {"page": {"size": "300x200", "dpi": 72},
             "pages": [{"id": "a", "elements": [
               {"type": "photo", "src": "plain.jpg", "at": [90, 80], "width": 120},
               {"type": "photo", "src": "gps.jpg", "at": [200, 80], "width": 60},
               {"type": "image", "src": "s.png", "at": [220, 60], "width": 40}]},
              {"id": "b", "elements": [{"type": "image", "src": "s.png", "at": [150, 100], "width": 80}]}]}
            """)
        let counter = try OpenCounter(["plain.jpg", "gps.jpg", "s.png"].map { ws.url($0).path })
        let r = try ws.run("build", "m.json", "-o", "out")
        #expect(r.code == 0, "\(r.err)")
        #expect(counter.opens() == ["plain.jpg": 1, "gps.jpg": 1, "s.png": 1], "opens of each source file")
        // What was read once is what the journal holds and what the pages drew.
        let assets = ws.snapshot("m.techo")
        #expect(assets.values.contains(plain), "the plain photo is stored as read")
        #expect(assets.values.contains(try ws.bytes("s.png")))
        #expect(!assets.values.contains(try ws.bytes("gps.jpg")), "the GPS photo is stored cleaned")
        #expect(try ws.run("check", "m.techo").code == 0)
        #expect(try ws.run("export", "m.techo", "-o", "again", "--force").code == 0)
        #expect(ws.snapshot("out") == ws.snapshot("again"), "the pages are what an export of the journal draws")
        // Nothing is left beside the journal.
        let beside = try FileManager.default.contentsOfDirectory(atPath: ws.dir.path).filter { $0.hasPrefix(".tmp-") }
        #expect(beside.isEmpty, "\(beside)")
    }

    @Test func addPhotoOpensTheFileOnce() throws {
        let ws = try Workspace()
        #expect(try ws.run("init", "j.techo", "--size", "200x200").code == 0)
        try ws.jpeg("p.jpg", 64, 48, rgb: (200, 100, 50))
        let counter = try OpenCounter([ws.url("p.jpg").path])
        let r = try ws.run("add", "photo", "j.techo", "p1", "p.jpg")
        #expect(r.code == 0, "\(r.err)")
        #expect(counter.opens() == ["p.jpg": 1])
        #expect(ws.snapshot("j.techo").values.contains(try ws.bytes("p.jpg")))
    }
}
