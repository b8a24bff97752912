// PNG encoding: colour type by opacity, straight alpha, sRGB/pHYs, levels, determinism.
import TechoCodecs
import TechoRaster
import Testing

@Suite struct PNGEncoderTests {
    @Test func opaquePixmapIsWrittenAsRGBAndRoundTripsExactly() throws {
        let image = syntheticImage(width: 67, height: 45, translucent: false)
        let png = try PNGEncoder.encode(image.premultiplied())
        let ihdr = try #require(pngChunks(png).first { $0.0 == "IHDR" }?.1)
        #expect(ihdr[8] == 8 && ihdr[9] == 2, "8-bit RGB expected, got depth \(ihdr[8]) type \(ihdr[9])")
        let back = try ImageDecoder.decodeStraight(png, name: "rt.png")
        #expect(back.pixels == image)
    }

    @Test func translucentPixmapIsWrittenAsStraightRGBA() throws {
        let pixmap = syntheticImage(width: 50, height: 31, translucent: true).premultiplied()
        let png = try PNGEncoder.encode(pixmap)
        let ihdr = try #require(pngChunks(png).first { $0.0 == "IHDR" }?.1)
        #expect(ihdr[9] == 6, "RGBA expected, got colour type \(ihdr[9])")
        let back = try ImageDecoder.decodeStraight(png, name: "rt.png")
        // The file holds the straight values of the pixmap, and decoding premultiplies them back.
        #expect(back.pixels.bytes == pixmap.straightRGBA())
        #expect(back.pixels.premultiplied() == pixmap)
    }

    @Test func straightImageRoundTripsExactlyIncludingTransparentColour() throws {
        var image = syntheticImage(width: 16, height: 16, translucent: true)
        image.bytes[3] = 0; image.bytes[0] = 200  // colour under zero alpha survives straight encoding
        let back = try ImageDecoder.decodeStraight(try PNGEncoder.encode(image), name: "rt.png")
        #expect(back.pixels == image)
    }

    @Test func writesSRGBAndPHYsAndNoTimeChunk() throws {
        let png = try PNGEncoder.encode(syntheticImage(width: 8, height: 8, translucent: false), dpi: 300)
        let chunks = pngChunks(png)
        let names = chunks.map(\.0)
        #expect(names.first == "IHDR" && names.last == "IEND")
        #expect(names.contains("sRGB"))
        #expect(!names.contains("tIME") && !names.contains("tEXt") && !names.contains("gAMA"))
        let phys = try #require(chunks.first { $0.0 == "pHYs" }?.1)
        #expect(be32(phys, 0) == 11811 && be32(phys, 4) == 11811 && phys[8] == 1)  // 300 / 0.0254
        let none = try PNGEncoder.encode(syntheticImage(width: 8, height: 8, translucent: false))
        #expect(!pngChunks(none).map(\.0).contains("pHYs"))
    }

    @Test func identicalInputGivesIdenticalBytes() throws {
        let pixmap = syntheticImage(width: 40, height: 40, translucent: true, seed: 9).premultiplied()
        let a = try PNGEncoder.encode(pixmap, dpi: 144, level: 9)
        let b = try PNGEncoder.encode(pixmap, dpi: 144, level: 9)
        #expect(a == b)
    }

    @Test(arguments: [0, 1, 6, 9])
    func everyLevelRoundTrips(level: Int) throws {
        let image = syntheticImage(width: 64, height: 64, translucent: true, seed: UInt64(level))
        let png = try PNGEncoder.encode(image, level: level)
        #expect(try ImageDecoder.decodeStraight(png, name: "l.png").pixels == image)
    }

    @Test func levelZeroStoresAndLevelNineCompresses() throws {
        let image = syntheticImage(width: 64, height: 64, translucent: false)
        let stored = try PNGEncoder.encode(image, level: 0, filter: .none).count
        let small = try PNGEncoder.encode(image, level: 9).count
        #expect(stored >= 64 * 64 * 3)
        #expect(small < stored / 2, "level 9 gave \(small) bytes, level 0 \(stored)")
    }

    @Test(arguments: [PNGEncoder.Filter.none, .sub, .up, .average, .paeth, .adaptive])
    func everyFilterRoundTrips(filter: PNGEncoder.Filter) throws {
        let image = syntheticImage(width: 33, height: 17, translucent: true)
        let png = try PNGEncoder.encode(image, level: 6, filter: filter)
        #expect(try ImageDecoder.decodeStraight(png, name: "f.png").pixels == image)
    }
}
