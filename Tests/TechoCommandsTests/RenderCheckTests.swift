// `techo build` lets the render's decode of a JPEG, PNG, HEIF or AVIF, GPS-cleaned or not, stand
// for the picture's whole-stream check (docs/decisions/sources.md): a picture the render decoded
// whole is not probed again, and one it did not decode (not drawn, or drawn into a PDF) is
// probed as before.
import Foundation
import TechoCodecs
import TechoModel
import TechoRaster
import TechoTestSupport
import Testing

@testable import TechoCommands

@Suite struct RenderCheckTests {
    /// A file that is no picture at all: any probe of it fails.
    func garbage(_ ws: Workspace) throws -> URL {
        try ws.write("garbage.jpg", Array(repeating: 0x5A, count: 64))
        return ws.url("garbage.jpg")
    }

    @Test func aPictureTheRenderDecodedIsNotProbedAgain() throws {
        let ws = try Workspace()
        let file = try garbage(ws)
        let ref = try AssetRef(sha256: SHA256.hex([1]), ext: "jpg")
        let batch = ProbeBatch()
        batch.deferCheck(ref, file: file, name: "garbage.jpg")
        batch.decoded(ref)
        batch.renderEnded()
        #expect(batch.wait(), "the render's decode was the check: the file is not read")
    }

    @Test func aPictureTheRenderDidNotDecodeIsProbedOnceItEnded() throws {
        let ws = try Workspace()
        let bad = try garbage(ws)
        try ws.jpeg("good.jpg", 32, 24, rgb: (10, 20, 30))
        let refs = try (1...3).map { try AssetRef(sha256: SHA256.hex([UInt8($0)]), ext: "jpg") }
        let passing = ProbeBatch()
        passing.deferCheck(refs[0], file: ws.url("good.jpg"), name: "good.jpg")
        passing.renderEnded()
        #expect(passing.wait())
        let failing = ProbeBatch()
        failing.deferCheck(refs[1], file: ws.url("good.jpg"), name: "good.jpg")
        failing.deferCheck(refs[2], file: bad, name: "garbage.jpg")
        // Another picture's decode does not stand for this one's.
        failing.decoded(refs[1])
        failing.renderEnded()
        #expect(!failing.wait())
        #expect(!failing.wait(), "a second wait gives the same answer")
    }

    @Test func waitingForTheRenderEndsWhenItDecodesThePicture() throws {
        let ws = try Workspace()
        let ref = try AssetRef(sha256: SHA256.hex([9]), ext: "jpg")
        let batch = ProbeBatch()
        batch.deferCheck(ref, file: try garbage(ws), name: "garbage.jpg")
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var passed = false
        Thread {
            passed = batch.wait()
            done.signal()
        }.start()
        #expect(done.wait(timeout: .now() + 0.2) == .timedOut, "waits for the render")
        batch.decoded(ref)
        #expect(done.wait(timeout: .now() + 10) == .success)
        #expect(passed)
    }

    /// A JPEG of noise cut in half: its header is whole, only its stream is damaged.
    func cutJPEG(_ ws: Workspace, _ name: String) throws {
        var pm = Pixmap(width: 256, height: 192)
        var seed: UInt32 = 777
        for i in pm.data.indices {
            seed = seed &* 1_664_525 &+ 1_013_904_223
            pm.data[i] = i % 4 == 3 ? 255 : UInt8(truncatingIfNeeded: seed >> 24)
        }
        let whole = try JPEGEncoder.encode(pm, quality: 90, name: name)
        try ws.write(name, Array(whole.prefix(whole.count / 2)))
    }

    /// Pictures the pages do not draw (hidden, fully transparent) or draw into a PDF without
    /// decoding them are still checked whole, with the report a build always gave.
    @Test(arguments: [
        ("\"hidden\": true", "out"), ("\"opacity\": 0", "out"), ("\"rotate\": 3", "out/pages.pdf"),
    ])
    func aDamagedPictureTheRenderDoesNotDecodeIsRefused(field: String, output: String) throws {
        let ws = try Workspace()
        try cutJPEG(ws, "cut.jpg")
        try expectBuildRefuses(ws, photo: "cut.jpg", fields: ", " + field, output: output, saying: "cut.jpg")
    }

    /// Builds a one-page manifest of a sticker and the photo `photo` (with `fields` added to it)
    /// to `output`, and expects the refusal a build always gave: exit 65, the photo's JSON path
    /// and `saying` in the message, nothing written.
    func expectBuildRefuses(_ ws: Workspace, photo: String, fields: String = "", output: String = "out", saying: String) throws {
        try ws.png("s.png", 24, 16, rgba: (200, 40, 40, 255))
        try ws.write(
            "m.json",
            """
            {"page": {"size": "300x200", "dpi": 72},
             "pages": [{"id": "a", "elements": [
               {"type": "image", "src": "s.png", "at": [220, 60], "width": 40},
               {"type": "photo", "src": "\(photo)", "at": [90, 80], "width": 120\(fields)}]}]}
            """)
        let r = try ws.run("build", "m.json", "-o", output)
        #expect(r.code == 65, "\(r.code) \(r.err)")
        #expect(r.err.contains("pages[0].elements[1].src: ") && r.err.contains(saying), "\(r.err)")
        #expect(!ws.exists("m.techo") && !ws.exists("out"), "nothing written")
    }

    /// What `TECHO_TIMINGS=1` counted: by format, the whole checks and the decodes.
    func passes(_ err: String) throws -> [String: [Int]] {
        let prefix = "techo: timings: picture passes: "
        let line = try #require(err.split(separator: "\n").first { $0.hasPrefix(prefix) }, "\(err)")
        var out: [String: [Int]] = [:]
        for item in line.dropFirst(prefix.count).split(separator: ", ") where item != "none" {
            let w = item.split(separator: " ")
            out[String(w[0])] = [Int(w[2]) ?? -1, Int(w[4]) ?? -1]
        }
        return out
    }

    /// Phone-style pictures: a HEIC (drawn at full size: libheif's decode), a grid of HEVC tiles
    /// (drawn at half size: the tile path), a HEIC and a JPEG whose GPS data the build removes.
    func phonePictures(_ ws: Workspace) throws -> String {
        let devices = "../TechoCodecsTests/Fixtures/devices/"
        for name in ["quad.heic", "grid-2x2.heic", "quad-orient6.heic"] { try Fixtures.data(devices + name).write(to: ws.url(name)) }
        try ws.jpeg("plain.jpg", 96, 64, rgb: (40, 120, 200))
        let plain = try ws.bytes("plain.jpg")
        try ws.write("gps.jpg", Array(plain[0..<2]) + FuzzChecksTests.gpsAPP1 + Array(plain[2...]))
        return """
            {"page": {"size": "300x200", "dpi": 72},
             "pages": [{"id": "a", "elements": [
               {"type": "photo", "src": "quad.heic", "at": [60, 50], "width": 64},
               {"type": "photo", "src": "grid-2x2.heic", "at": [160, 50], "width": 60},
               {"type": "photo", "src": "quad-orient6.heic", "at": [60, 140], "width": 40},
               {"type": "photo", "src": "gps.jpg", "at": [200, 140], "width": 90}]}]}
            """
    }

    /// Each picture is decoded once: by the render, whose decode is its check.
    @Test func aBuildDecodesEachHEICAndGPSPhotoOnce() throws {
        let ws = try Workspace()
        try ws.write("m.json", try phonePictures(ws))
        let r = try ws.run(["build", "m.json", "-o", "out"], environment: ["TECHO_TIMINGS": "1"])
        #expect(r.code == 0, "\(r.err)")
        #expect(try passes(r.err) == ["heif": [0, 3], "jpeg": [0, 1]], "\(r.err)")
        // The GPS photos were stored cleaned, and the pages are what an export of the journal draws.
        #expect(!ws.snapshot("m.techo").values.contains(try ws.bytes("gps.jpg")))
        #expect(!ws.snapshot("m.techo").values.contains(try ws.bytes("quad-orient6.heic")))
        #expect(try ws.run("check", "m.techo").code == 0)
        #expect(try ws.run("export", "m.techo", "-o", "again", "--force").code == 0)
        #expect(ws.snapshot("out") == ws.snapshot("again"))
        // Without a render that draws pixels, each is checked as before, and not decoded.
        let ws2 = try Workspace()
        try ws2.write("m.json", try phonePictures(ws2))
        let n = try ws2.run(["build", "m.json", "--no-export"], environment: ["TECHO_TIMINGS": "1"])
        #expect(n.code == 0, "\(n.err)")
        #expect(try passes(n.err) == ["heif": [3, 0], "jpeg": [1, 0]], "\(n.err)")
    }

    /// `bytes` with every byte of its first `mdat` box's second half turned: the header reads,
    /// the tiles' data does not.
    func damagedHEIC(_ bytes: [UInt8]) throws -> [UInt8] {
        var out = bytes
        var i = 0
        while i + 8 <= bytes.count {
            let size = bytes[i..<(i + 4)].reduce(0) { $0 << 8 | Int($1) }
            if String(decoding: bytes[(i + 4)..<(i + 8)], as: UTF8.self) == "mdat" {
                for k in (i + size / 2)..<(i + size) { out[k] ^= 0x5A }
                return out
            }
            try #require(size >= 8)
            i += size
        }
        throw CocoaError(.fileReadCorruptFile)
    }

    /// A damaged HEIC grid and a damaged GPS-tagged JPEG the render draws are reported as they
    /// always were: the check's message at the picture's JSON path, exit 65, nothing written.
    @Test(arguments: ["bad.heic", "bad-gps.jpg"])
    func aDamagedHEICOrGPSPhotoTheRenderDrawsIsRefused(name: String) throws {
        let ws = try Workspace()
        if name == "bad.heic" {
            try ws.write(name, try damagedHEIC(try Fixtures.data("../TechoCodecsTests/Fixtures/devices/grid-2x2.heic").map { $0 }))
        } else {
            try cutJPEG(ws, "cut.jpg")
            let cut = try ws.bytes("cut.jpg")
            try ws.write(name, Array(cut[0..<2]) + FuzzChecksTests.gpsAPP1 + Array(cut[2...]))
        }
        // The header passes; the whole stream does not.
        let bytes = try ws.bytes(name)
        _ = try ImageDecoder.info(of: bytes, name: name)
        let probe = try #require(throws: ImageError.self) { try ImageProbe.check(bytes, name: name) }
        let reason = try #require("\(probe)".components(separatedBy: name + ": ").last)
        try expectBuildRefuses(ws, photo: name, saying: name + ": " + reason)
        let beside = try FileManager.default.contentsOfDirectory(atPath: ws.dir.path).filter { $0.hasPrefix(".tmp-") }
        #expect(beside.isEmpty, "\(beside)")
    }
}
