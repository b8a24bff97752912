import TechoGeometry
import TechoRaster
import Testing

// techo's PNG writer against libpng's: the same pixels back through libpng's decoder, across
// colour types, filters, levels and band splits (spliced deflate streams); sizes near zlib's.
@testable import TechoCodecs

/// A photo-like straight RGBA image: gradients, hard edges, noise; alpha varies when `translucent`.
private func photoLike(width: Int, height: Int, translucent: Bool, seed: UInt64) -> RGBAImage {
    var rng = SplitMix64(seed: seed)
    var bytes = [UInt8](repeating: 0, count: width * height * 4)
    for y in 0..<height {
        for x in 0..<width {
            let i = (y * width + x) * 4
            let edge = ((x / 37 + y / 23) & 1) == 0 ? 40 : 0
            let n = Int(rng.byte() % 8)
            bytes[i] = UInt8(clamping: 60 + x % 97 + edge + n)
            bytes[i + 1] = UInt8(clamping: 30 + (x + 2 * y) % 150 + n)
            bytes[i + 2] = UInt8(clamping: 200 - y % 120 - edge + n)
            bytes[i + 3] = translucent ? UInt8((x * 5 + y * 11) % 256) : 255
        }
    }
    return RGBAImage(width: width, height: height, bytes: bytes)
}

/// The writer on straight pixels with a chosen band height (to force splices on small images).
private func write(_ image: RGBAImage, level: Int = 6, filter: PNGEncoder.Filter = .adaptive, bandRows: Int?) -> [UInt8] {
    let channels = image.isOpaque ? 3 : 4
    return image.bytes.withUnsafeBufferPointer { px in
        PNGWriter.encode(
            width: image.width, height: image.height, channels: channels, level: level, filter: filter,
            ppm: 0, bandRows: bandRows
        ) { y, out in
            for x in 0..<image.width {
                for c in 0..<channels { out[x * channels + c] = px[(y * image.width + x) * 4 + c] }
            }
        }
    }
}

@Suite struct PNGWriterTests {
    struct Case: CustomStringConvertible, Sendable {
        var width: Int, height: Int, translucent: Bool, level: Int, bandRows: Int?
        var description: String { "\(width)x\(height) \(translucent ? "RGBA" : "RGB") level \(level) bands \(bandRows.map(String.init) ?? "default")" }
    }

    static let cases: [Case] = [
        Case(width: 1, height: 1, translucent: false, level: 6, bandRows: nil),
        Case(width: 1, height: 9, translucent: true, level: 1, bandRows: 1),
        Case(width: 97, height: 61, translucent: false, level: 6, bandRows: 4),
        Case(width: 97, height: 61, translucent: true, level: 6, bandRows: 7),
        Case(width: 120, height: 80, translucent: false, level: 0, bandRows: 9),  // stored blocks
        Case(width: 120, height: 80, translucent: true, level: 9, bandRows: 16),
        Case(width: 300, height: 200, translucent: false, level: 3, bandRows: 50),  // dynamic blocks
        Case(width: 300, height: 200, translucent: true, level: 6, bandRows: nil),
    ]

    @Test(arguments: cases)
    func decodesToTheSamePixelsAsLibPNGsFile(c: Case) throws {
        let image = photoLike(width: c.width, height: c.height, translucent: c.translucent, seed: UInt64(c.width * 31 + c.level))
        let ours = write(image, level: c.level, bandRows: c.bandRows)
        let reference = try PNGEncoder.encodeWithLibPNG(image, level: c.level)
        let a = try ImageDecoder.decodeStraight(ours, name: "ours.png")
        let b = try ImageDecoder.decodeStraight(reference, name: "libpng.png")
        #expect(a.notes.isEmpty, "libpng warned: \(a.notes)")
        #expect(a.pixels == image, "our file does not decode to the image")
        #expect(a.pixels == b.pixels, "our file and libpng's decode differently")
        let ihdr = try #require(pngChunks(ours).first { $0.0 == "IHDR" }?.1)
        #expect(ihdr[9] == (c.translucent ? 6 : 2))
    }

    @Test(arguments: [PNGEncoder.Filter.none, .sub, .up, .average, .paeth, .adaptive])
    func everyFilterSurvivesBandSplits(filter: PNGEncoder.Filter) throws {
        let image = photoLike(width: 45, height: 40, translucent: true, seed: 3)
        let png = write(image, filter: filter, bandRows: 6)
        #expect(try ImageDecoder.decodeStraight(png, name: "f.png").pixels == image, "\(filter) does not round-trip")
    }

    @Test func bandSplitsCostLittleAndTheFileIsNearZlibLevelSix() throws {
        let image = photoLike(width: 400, height: 300, translucent: false, seed: 5)
        let whole = write(image, bandRows: 300).count
        let split = write(image, bandRows: 60).count
        let zlib6 = try PNGEncoder.encodeWithLibPNG(image.premultiplied(), level: 6).count
        #expect(split <= whole + whole / 20, "5 bands: \(split) bytes, one band: \(whole)")
        #expect(Double(split) <= 1.1 * Double(zlib6), "ours \(split) bytes, libpng level 6 \(zlib6)")
    }

    @Test func pixmapEncodeWritesStraightAlphaLikeLibPNG() throws {
        let pixmap = photoLike(width: 64, height: 48, translucent: true, seed: 8).premultiplied()
        let ours = try ImageDecoder.decodeStraight(try PNGEncoder.encode(pixmap, dpi: 300), name: "a.png")
        let theirs = try ImageDecoder.decodeStraight(try PNGEncoder.encodeWithLibPNG(pixmap, dpi: 300), name: "b.png")
        #expect(ours.pixels == theirs.pixels, "our file and libpng's decode differently")
        #expect(ours.pixels.bytes == pixmap.straightRGBA(), "not the pixmap's straight values")
    }

    @Test func adler32CombinesLikeOneRunningSum() {
        func adler(_ d: [UInt8]) -> UInt32 {
            var a: UInt32 = 1, b: UInt32 = 0
            for x in d { a = (a + UInt32(x)) % 65521; b = (b + a) % 65521 }
            return b << 16 | a
        }
        var rng = SplitMix64(seed: 11)
        let data = (0..<70_000).map { _ in rng.byte() }
        for cut in [0, 1, 5552, 65521, 69_999] {
            let combined = PNGWriter.combineAdler32(adler(Array(data[..<cut])), adler(Array(data[cut...])), data.count - cut)
            #expect(combined == adler(data), "cut at \(cut)")
        }
    }

    @Test func spliceRefusesWhatIsNotDeflate() {
        #expect(DeflateSplice.finalBlock(of: []) == nil)
        #expect(DeflateSplice.finalBlock(of: [0x07]) == nil)  // reserved block type 3
        #expect(DeflateSplice.finalBlock(of: [0x01, 0x05, 0x00]) == nil)  // stored, truncated length
        var rng = SplitMix64(seed: 2)
        for _ in 0..<200 { _ = DeflateSplice.finalBlock(of: (0..<64).map { _ in rng.byte() }) }  // never traps
        // An empty final stored block: header bits 0..2, LEN/NLEN in bytes 1...4.
        #expect(DeflateSplice.finalBlock(of: [0x01, 0x00, 0x00, 0xFF, 0xFF]) == DeflateFinalBlock(headerBit: 0, endBit: 40))
    }
}
