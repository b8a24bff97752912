// The JPEG corpus and the EXIF orientation samples, each row checked by the rule in its header.
import TechoCodecs
import Testing

@Suite struct JPEGCorpusTests {
    /// `ok`: decodes to exactly the djpeg reference (orientation not applied). `ok-warn`: the
    /// same, and libjpeg's warning arrives as a note. `ok-or-fail`: the reference or a clean
    /// error. `must-fail` / `unsupported`: an error naming the file. `sniff-or-fail`: decoded as
    /// the format its bytes say, or an error naming the file.
    @Test(arguments: corpusRows("jpeg"))
    func jpegCorpus(_ row: CorpusRow) throws {
        let bytes = try readFile(row.path)
        let result: DecodedImage<RGBAImage>
        do {
            result = try ImageDecoder.decodeStraight(bytes, name: row.path, applyOrientation: false)
        } catch let error as ImageError {
            #expect(["ok-or-fail", "must-fail", "unsupported", "sniff-or-fail"].contains(row.expected), "\(error)")
            #expect(error.file == row.path)
            #expect(error.description.hasPrefix(row.path + ": "))
            if row.expected == "unsupported" {
                guard case .unsupported = error.reason else {
                    Issue.record("expected .unsupported, got \(error)")
                    return
                }
            }
            return
        }
        #expect(!["must-fail", "unsupported"].contains(row.expected), "decoded a \(row.expected) file")
        if row.expected == "sniff-or-fail" {
            #expect(result.info.format != .jpeg, "a file that is not a JPEG decoded as JPEG")
            return
        }
        #expect(result.info.format == .jpeg)
        #expect("\(result.pixels.width)" == row.fields["width"])
        #expect("\(result.pixels.height)" == row.fields["height"])
        if row.expected == "ok-warn" { #expect(!result.notes.isEmpty, "libjpeg's warning was not collected") }
        if row.expected == "ok" { #expect(result.notes.isEmpty, "unexpected notes: \(result.notes)") }
        let refPath = try #require(row.referencePath)
        let expected = try ImageDecoder.decodeStraight(readFile(refPath), name: refPath).pixels.bytes
        #expect(result.pixels.bytes == expected, "\(firstDifference(result.pixels.bytes, expected))")
    }

    /// Every EXIF sample turns into its displayed size, and Landscape_N / Portrait_N match their
    /// _1 image after the orientation is applied (box-downsampled, mean abs diff < 10; a wrong
    /// transform gives 38 or more). Decoded at 1/2 scale, which also exercises DCT scaling.
    @Test(arguments: corpusRows("exif"))
    func exifOrientation(_ row: CorpusRow) throws {
        let bytes = try readFile(row.path)
        let value = Int(row.fields["orientation"] ?? "") ?? -1
        #expect(JPEGMetadata.orientation(in: bytes) == ImageOrientation(exifValue: value))
        let displayed = (row.fields["displayed"] ?? "").split(separator: "x").compactMap { Int($0) }
        let info = try ImageDecoder.info(of: bytes, name: row.path)
        #expect([info.naturalWidth, info.naturalHeight] == displayed)

        if row.file.hasPrefix("../") {
            // 227x149 generated files: compare with the stored image turned by a slow oracle.
            let image = try ImageDecoder.decodeStraight(bytes, name: row.path).pixels
            #expect([image.width, image.height] == displayed)
            let stored = try ImageDecoder.decodeStraight(bytes, name: row.path, applyOrientation: false).pixels
            #expect(image == orientedByOracle(stored, value))
            return
        }
        let half = (width: displayed[0] / 2, height: displayed[1] / 2)
        let image = try ImageDecoder.decodeStraight(bytes, name: row.path, minimumSize: half)
        #expect(image.scaleDenominator == 2)
        #expect([image.pixels.width, image.pixels.height] == [half.width, half.height])
        let basePath = String(row.path.dropLast("_\(value).jpg".count)) + "_1.jpg"
        let base = try ImageDecoder.decodeStraight(try readFile(basePath), name: basePath, minimumSize: half).pixels
        let mad = meanAbsoluteDifference(boxDownsample(image.pixels, by: 5), boxDownsample(base, by: 5))
        #expect(mad < 10, "mean abs difference \(mad) against \(basePath)")
    }

    @Test func corporaAreNotEmpty() {
        #expect(corpusRows("jpeg").count == 76)
        #expect(corpusRows("exif").count == 21)
    }
}

/// Orientation by the EXIF definition, as a map from stored (x, y) to displayed position.
func orientedByOracle(_ src: RGBAImage, _ value: Int) -> RGBAImage {
    let w = src.width, h = src.height
    let swap = value >= 5 && value <= 8
    let ow = swap ? h : w, oh = swap ? w : h
    var out = [UInt8](repeating: 0, count: src.bytes.count)
    for y in 0..<h {
        for x in 0..<w {
            let (dx, dy): (Int, Int)
            switch value {
            case 2: (dx, dy) = (w - 1 - x, y)
            case 3: (dx, dy) = (w - 1 - x, h - 1 - y)
            case 4: (dx, dy) = (x, h - 1 - y)
            case 5: (dx, dy) = (y, x)
            case 6: (dx, dy) = (h - 1 - y, x)
            case 7: (dx, dy) = (h - 1 - y, w - 1 - x)
            case 8: (dx, dy) = (y, w - 1 - x)
            default: (dx, dy) = (x, y)
            }
            for c in 0..<4 { out[(dy * ow + dx) * 4 + c] = src.bytes[(y * w + x) * 4 + c] }
        }
    }
    return RGBAImage(width: ow, height: oh, bytes: out)
}

/// Mean of each `k`×`k` block, RGB only, as Doubles.
func boxDownsample(_ img: RGBAImage, by k: Int) -> [Double] {
    let ow = img.width / k, oh = img.height / k
    var out = [Double](repeating: 0, count: ow * oh * 3)
    img.bytes.withUnsafeBufferPointer { p in
        for y in 0..<(oh * k) {
            for x in 0..<(ow * k) {
                let o = ((y / k) * ow + x / k) * 3, i = (y * img.width + x) * 4
                out[o] += Double(p[i]); out[o + 1] += Double(p[i + 1]); out[o + 2] += Double(p[i + 2])
            }
        }
    }
    return out.map { $0 / Double(k * k) }
}

func meanAbsoluteDifference(_ a: [Double], _ b: [Double]) -> Double {
    guard a.count == b.count, !a.isEmpty else { return .infinity }
    var s = 0.0
    for i in 0..<a.count { s += abs(a[i] - b[i]) }
    return s / Double(a.count)
}
