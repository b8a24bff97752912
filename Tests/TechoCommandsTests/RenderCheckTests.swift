// `techo build` lets the render's decode of a JPEG or PNG stand for the picture's whole-stream
// check (docs/decisions/sources.md): a picture the render decoded whole is not probed again, and
// one it did not decode (not drawn, or drawn into a PDF) is probed as before.
import Foundation
import TechoCodecs
import TechoModel
import TechoRaster
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
        try ws.png("s.png", 24, 16, rgba: (200, 40, 40, 255))
        try ws.write(
            "m.json",
            """
            {"page": {"size": "300x200", "dpi": 72},
             "pages": [{"id": "a", "elements": [
               {"type": "image", "src": "s.png", "at": [220, 60], "width": 40},
               {"type": "photo", "src": "cut.jpg", "at": [90, 80], "width": 120, \(field)}]}]}
            """)
        let r = try ws.run("build", "m.json", "-o", output)
        #expect(r.code == 65, "\(r.code) \(r.err)")
        #expect(r.err.contains("pages[0].elements[1].src: ") && r.err.contains("cut.jpg"), "\(r.err)")
        #expect(!ws.exists("m.techo") && !ws.exists("out"), "nothing written")
    }
}
