// PngSuite and libpng's test images, each file checked against its EXPECTED.tsv row.
import TechoCodecs
import Testing

@Suite struct PNGCorpusTests {
    /// Every PngSuite file: `ok` decodes to exactly the reference RGBA, `must-fail` throws an
    /// error naming the file.
    @Test(arguments: corpusRows("pngsuite"))
    func pngsuite(_ row: CorpusRow) throws {
        try check(row) { try readFile($0) }
    }

    /// libpng's contrib pngsuite and testpngs (gamma/sRGB variants, bad palettes, fuzzer files).
    /// References are 8-bit RGBA PNGs, decoded with our own decoder.
    @Test(arguments: corpusRows("libpng"))
    func libpng(_ row: CorpusRow) throws {
        try check(row) { path in
            let ref = try ImageDecoder.decodeStraight(try readFile(path), name: path)
            return ref.pixels.bytes
        }
    }

    private func check(_ row: CorpusRow, reference load: (String) throws -> [UInt8]) throws {
        let bytes = try readFile(row.path)
        switch row.expected {
        case "ok", "ok-or-fail":
            let result: DecodedImage<RGBAImage>
            do {
                result = try ImageDecoder.decodeStraight(bytes, name: row.path)
            } catch let error as ImageError {
                // ok-or-fail may fail, cleanly and naming the file.
                #expect(row.expected == "ok-or-fail", "\(error)")
                #expect(error.description.hasPrefix(row.path))
                return
            }
            result.pixels.checkInvariants()
            #expect(result.info.format == .png)
            #expect("\(result.pixels.width)" == row.fields["width"])
            #expect("\(result.pixels.height)" == row.fields["height"])
            let refPath = try #require(row.referencePath)
            let expected = try load(refPath)
            #expect(result.pixels.bytes == expected, "\(firstDifference(result.pixels.bytes, expected))")
        case "must-fail":
            let error = try #require(throws: ImageError.self) {
                try ImageDecoder.decodeStraight(bytes, name: row.path)
            }
            #expect(error.file == row.path)
            #expect(error.description.hasPrefix(row.path + ": "))
        default:
            Issue.record("unknown expectation \(row.expected)")
        }
    }

    @Test func corporaAreNotEmpty() {
        #expect(corpusRows("pngsuite").count == 175)
        #expect(corpusRows("libpng").count == 199)
    }
}
