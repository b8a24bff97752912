// DCT-domain downscaling and warning collection for JPEG decoding.
import Foundation
import TechoTestSupport
import Testing

@testable import TechoCodecs

#if canImport(Glibc)
    import Glibc
#endif

@Suite struct JPEGDecodeOptionsTests {
    @Test func scaleIsTheSmallestThatCoversTheNeededSize() {
        let pick = { (w: Int, h: Int, o: ImageOrientation, need: (width: Int, height: Int)?) in
            JPEGDecoding.scaleDenominator(width: w, height: h, orientation: o, minimumSize: need)
        }
        // A 12 MP photo shown 700 px wide: 1/4 (1008x756) covers it, 1/8 (504x378) does not.
        #expect(pick(4032, 3024, .up, (700, 525)) == 4)
        #expect(pick(4032, 3024, .up, (504, 378)) == 8)
        #expect(pick(4032, 3024, .up, (505, 10)) == 4)
        #expect(pick(4032, 3024, .up, (2017, 10)) == 1)
        #expect(pick(4032, 3024, .up, (2016, 1512)) == 2)
        #expect(pick(4032, 3024, .up, nil) == 1)
        // Sizes round up: 227/8 → 29.
        #expect(pick(227, 149, .up, (29, 19)) == 8)
        #expect(pick(227, 149, .up, (30, 19)) == 4)
        // The needed size is in the displayed orientation.
        #expect(pick(4032, 3024, .right, (700, 1000)) == 4)  // stored need 1000x700
        #expect(pick(4032, 3024, .up, (700, 1000)) == 2)
        #expect(pick(4032, 3024, .right, (378, 504)) == 8)
        #expect(pick(4032, 3024, .up, (378, 504)) == 4)
    }

    @Test func downscaledDecodeHasTheScaledSizeAndLooksLikeTheFullImage() throws {
        let path = "\(fixturesDirectory)/jpeg/libjpeg-turbo/testorig.jpg"
        let bytes = try readFile(path)
        let full = try ImageDecoder.decodeStraight(bytes, name: path)
        #expect(full.scaleDenominator == 1 && full.pixels.width == 227)
        let quarter = try ImageDecoder.decodeStraight(bytes, name: path, minimumSize: (50, 30))
        #expect(quarter.scaleDenominator == 4)
        #expect(quarter.pixels.width == 57 && quarter.pixels.height == 38)
        #expect(quarter.info.width == 227, "info keeps the stored size")
        // Compare the 1/4 decode with a 4x4 box downsample of the full decode (whole blocks only).
        let fullSmall = boxDownsample(full.pixels, by: 4)  // 56x37
        var q = [Double]()
        for y in 0..<37 {
            for x in 0..<56 {
                let i = (y * 57 + x) * 4
                q += [Double(quarter.pixels.bytes[i]), Double(quarter.pixels.bytes[i + 1]), Double(quarter.pixels.bytes[i + 2])]
            }
        }
        let diff = meanAbsoluteDifference(q, fullSmall)
        #expect(diff < 6, "1/4 decode differs from a box-downsampled full decode by \(diff)")
        let larger = try ImageDecoder.decodeStraight(bytes, name: path, minimumSize: (1000, 1000))
        #expect(larger.scaleDenominator == 1 && larger.pixels.width == 227, "never upscales")
    }

    @Test func rotatedPhotoScalesByItsDisplayedSize() throws {
        let path = "\(fixturesDirectory)/jpeg/generated/gen_exif_orientation_6.jpg"
        let d = try ImageDecoder.decode(contentsOf: path, minimumSize: (40, 100))
        #expect(d.info.orientation == .right)
        #expect(d.scaleDenominator == 2)
        #expect(d.pixels.width == 75 && d.pixels.height == 114)
    }

    /// libjpeg and libpng print warnings to stderr by default; ours become notes instead. The
    /// notes are read here; that nothing reaches stderr is seen in a child process
    /// (`techo-fuzz --replay` decodes with the same `ImageDecoder`), so this process's stderr,
    /// which the test runner and the suites beside it write to, is never redirected.
    @Test func warningsBecomeNotesAndNothingReachesStderr() throws {
        let files = [
            "jpeg/jpeg-decoder/extraneous-data.jpg", "jpeg/generated/gen_no_eoi.jpg",
            "jpeg/jpeg-decoder/robustness/subtract-with-overflow.jpg",
        ].map { "\(fixturesDirectory)/\($0)" }
        var notes: [[String]] = []
        for path in files {
            notes.append((try? ImageDecoder.decode(readFile(path), name: path))?.notes ?? ["(failed)"])
        }
        // libpng warns (and drops the chunk) on an ancillary chunk with a bad CRC.
        var png = try readFile("\(fixturesDirectory)/pngsuite/basn6a08.png")
        png.insert(contentsOf: beBytes(4) + Array("tEXt".utf8) + Array("a\u{0}bc".utf8) + [1, 2, 3, 4], at: 33)
        let pngNotes = (try? ImageDecoder.decode(png, name: "badcrc.png"))?.notes ?? ["(failed)"]
        #expect(notes[0].contains { $0.contains("Corrupt JPEG data") }, "\(notes[0])")
        #expect(notes[1].contains { $0.contains("Premature end of JPEG file") }, "\(notes[1])")
        #expect(pngNotes.contains { $0.contains("CRC") }, "\(pngNotes)")

        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("techo-stderr-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let badCRC = dir.appendingPathComponent("badcrc.png")
        try Data(png).write(to: badCRC)
        let fuzz = BuiltProducts.url("techo-fuzz")
        for (target, inputs) in [("jpeg", files), ("png", [badCRC.path])] {
            let r = try ChildProcess.run(fuzz, [target, "--crashes", dir.path, "--replay"] + inputs, in: dir)
            #expect(r.code == 0, "\(target): exit \(r.code) \(r.err)")
            // Each decoded with notes ("ok FORMAT false": notes not empty) and printed nothing.
            #expect(r.out.split(separator: "\n").count == inputs.count, "\(r.out)")
            #expect(r.err.isEmpty, "stderr got: \(r.err)")
        }
        let outcomes = try ChildProcess.run(fuzz, ["png", "--crashes", dir.path, "--replay", badCRC.path], in: dir).out
        // Decoded whole with notes, then decoded again at a quarter (PNG has no reduced decode).
        #expect(outcomes.hasSuffix("ok png false reduced 1/1\n"), "\(outcomes)")
    }
}
