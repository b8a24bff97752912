// JPEG encoding: fidelity by quality, subsampling and progressive flags, density, determinism.
import TechoCodecs
import TechoRaster
import Testing

/// The segments of a JPEG up to SOS: (marker, payload).
func jpegSegments(_ b: [UInt8]) -> [(UInt8, [UInt8])] {
    var out: [(UInt8, [UInt8])] = []
    var i = 2
    while i + 4 <= b.count, b[i] == 0xFF {
        let m = b[i + 1], len = Int(b[i + 2]) << 8 | Int(b[i + 3])
        guard len >= 2, i + 2 + len <= b.count else { break }
        out.append((m, Array(b[(i + 4)..<(i + 2 + len)])))
        if m == 0xDA { break }
        i += 2 + len
    }
    return out
}

func rgbMeanAbsoluteDifference(_ a: RGBAImage, _ b: RGBAImage) -> Double {
    meanAbsoluteDifference(boxDownsample(a, by: 1), boxDownsample(b, by: 1))
}

@Suite struct JPEGEncoderTests {
    let image = syntheticImage(width: 96, height: 64, translucent: false, seed: 3)

    @Test func highQualityRoundTripIsClose() throws {
        let jpeg = try JPEGEncoder.encode(image.premultiplied(), quality: 95)
        let back = try ImageDecoder.decodeStraight(jpeg, name: "q95.jpg")
        #expect(back.info.format == .jpeg && back.pixels.width == 96 && back.pixels.height == 64)
        #expect(back.notes.isEmpty)
        let mad = rgbMeanAbsoluteDifference(back.pixels, image)
        #expect(mad < 3, "mean abs difference \(mad)")
    }

    @Test func lowerQualityIsSmallerAndFurther() throws {
        let hi = try JPEGEncoder.encode(image.premultiplied(), quality: 95)
        let lo = try JPEGEncoder.encode(image.premultiplied(), quality: 20)
        #expect(lo.count < hi.count)
        let madHi = rgbMeanAbsoluteDifference(try ImageDecoder.decodeStraight(hi, name: "hi.jpg").pixels, image)
        let madLo = rgbMeanAbsoluteDifference(try ImageDecoder.decodeStraight(lo, name: "lo.jpg").pixels, image)
        #expect(madLo > madHi)
    }

    @Test func identicalInputGivesIdenticalBytes() throws {
        let a = try JPEGEncoder.encode(image.premultiplied(), quality: 80, progressive: true, dpi: 300)
        let b = try JPEGEncoder.encode(image.premultiplied(), quality: 80, progressive: true, dpi: 300)
        #expect(a == b)
    }

    @Test func flagsReachTheFile() throws {
        let base = try JPEGEncoder.encode(image.premultiplied())
        let sof = try #require(jpegSegments(base).first { $0.0 == 0xC0 }?.1)
        #expect(sof[5] == 3 && sof[7] == 0x22, "baseline 4:2:0 expected, Y sampling \(sof[7])")
        let full = try JPEGEncoder.encode(image.premultiplied(), chromaSubsampling: false)
        #expect(jpegSegments(full).first { $0.0 == 0xC0 }?.1[7] == 0x11)
        let prog = try JPEGEncoder.encode(image.premultiplied(), progressive: true)
        #expect(jpegSegments(prog).contains { $0.0 == 0xC2 })
        #expect(try ImageDecoder.decodeStraight(prog, name: "p.jpg").pixels.width == 96)
        let dense = try JPEGEncoder.encode(image.premultiplied(), dpi: 300)
        let jfif = try #require(jpegSegments(dense).first { $0.0 == 0xE0 }?.1)
        #expect(Array(jfif[0..<5]) == Array("JFIF".utf8) + [0])
        #expect(jfif[7] == 1 && Int(jfif[8]) << 8 | Int(jfif[9]) == 300 && Int(jfif[10]) << 8 | Int(jfif[11]) == 300)
    }

    @Test func translucentPixelsAreFlattenedOverTheBackground() throws {
        var clear = Pixmap(width: 16, height: 16)
        let white = try ImageDecoder.decodeStraight(JPEGEncoder.encode(clear), name: "w.jpg").pixels
        #expect(white.bytes.allSatisfy { $0 >= 254 })
        clear.fill(r: 0, g: 0, b: 128, a: 128)  // half-transparent pure blue over red
        let mixed = try ImageDecoder.decodeStraight(
            JPEGEncoder.encode(clear, quality: 100, background: (255, 0, 0)),
            name: "m.jpg"
        ).pixels
        let (r, g, b) = (Int(mixed.bytes[0]), Int(mixed.bytes[1]), Int(mixed.bytes[2]))
        #expect(abs(r - 127) <= 3 && g <= 3 && abs(b - 128) <= 3, "got \(r),\(g),\(b)")
    }
}
