// ImageProbe agrees with a full decode on every corpus file: it accepts what decodes and refuses
// what does not, without decoding into an image.
import TechoCodecs
import Testing

@Suite struct ImageProbeTests {
    static let rows = corpusRows("pngsuite") + corpusRows("libpng") + corpusRows("jpeg") + corpusRows("exif")

    @Test(arguments: rows)
    func probeAgreesWithDecode(row: CorpusRow) throws {
        let bytes = try readFile(row.path)
        let decoded = Result { try ImageDecoder.decodeStraight(bytes, name: row.file, applyOrientation: false) }
        let probed = Result { try ImageProbe.check(bytes, name: row.file) }
        switch (decoded, probed) {
        case (.success(let d), .success(let info)):
            #expect(info == d.info, "\(row.file)")
        case (.failure(let d), .failure(let p)):
            // Both refuse, and the probe's error names the file too.
            #expect("\(p)".hasPrefix(row.file), "\(p)")
            _ = d
        case (.success, .failure(let p)):
            Issue.record("\(row.file): decodes, but the probe refuses it: \(p)")
        case (.failure(let d), .success):
            Issue.record("\(row.file): the probe accepts it, but decoding fails: \(d)")
        }
    }

    @Test func truncatedFilesAreRefusedNamingTheFile() throws {
        let jpeg = try readFile("\(fixturesDirectory)/jpeg/generated/gen_420.jpg")
        for cut in [jpeg.count / 2, jpeg.count - 200] {
            #expect(throws: ImageError.self) { try ImageProbe.check(Array(jpeg.prefix(cut)), name: "cut.jpg") }
        }
        let png = try readFile("\(fixturesDirectory)/pngsuite/basn6a08.png")
        let e = #expect(throws: ImageError.self) { try ImageProbe.check(Array(png.prefix(png.count - 20)), name: "cut.png") }
        #expect(e.map { "\($0)".hasPrefix("cut.png: ") } == true)
    }

    @Test func headerOverTheLimitsIsRefusedBeforeTheData() throws {
        let png = try readFile("\(fixturesDirectory)/pngsuite/basn6a08.png")
        var lying = png
        // IHDR width at byte 16: claim 40000 x 32 (over 32768 a side). The CRC is now wrong too,
        // but the size is checked first, so the error is about the limits.
        lying[16] = 0; lying[17] = 0; lying[18] = 0x9C; lying[19] = 0x40
        let e = #expect(throws: ImageError.self) { try ImageProbe.check(lying, name: "wide.png") }
        if case .tooLarge(let w, _, _)? = e?.reason { #expect(w == 40_000) } else { Issue.record("\(String(describing: e))") }
    }
}
