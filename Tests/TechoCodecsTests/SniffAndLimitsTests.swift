// Formats are told from bytes, not names; oversized headers are refused before allocation.
import Foundation
import TechoCodecs
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// CRC-32 (ISO 3309, as PNG uses), bitwise: slow and obvious, for crafting chunks.
func crc32(_ bytes: [UInt8]) -> UInt32 {
    var c: UInt32 = 0xFFFF_FFFF
    for b in bytes {
        c ^= UInt32(b)
        for _ in 0..<8 { c = (c & 1) != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
    }
    return c ^ 0xFFFF_FFFF
}

func beBytes(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)] }

func pngChunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
    let td = Array(type.utf8) + data
    return beBytes(UInt32(data.count)) + td + beBytes(crc32(td))
}

/// A PNG whose IHDR (with a valid CRC) claims `width`×`height` RGBA, followed by a tiny IDAT.
func craftedPNG(width: UInt32, height: UInt32) -> [UInt8] {
    let sig: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    let ihdr = beBytes(width) + beBytes(height) + [8, 6, 0, 0, 0]
    return sig + pngChunk("IHDR", ihdr) + pngChunk("IDAT", [0x78, 0x9C, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01])
        + pngChunk("IEND", [])
}

/// testorig.jpg with its SOF0 size patched to `width`×`height`.
func craftedJPEG(width: Int, height: Int) throws -> [UInt8] {
    var bytes = try readFile("\(fixturesDirectory)/jpeg/libjpeg-turbo/testorig.jpg")
    var i = 2
    while i + 9 < bytes.count {
        let marker = bytes[i + 1], length = Int(bytes[i + 2]) << 8 | Int(bytes[i + 3])
        if marker == 0xC0 {
            bytes[i + 5] = UInt8(height >> 8); bytes[i + 6] = UInt8(height & 0xFF)
            bytes[i + 7] = UInt8(width >> 8); bytes[i + 8] = UInt8(width & 0xFF)
            return bytes
        }
        i += 2 + length
    }
    throw ImageError(file: "testorig.jpg", format: .jpeg, reason: .corrupt("no SOF0"))
}

@Suite struct SniffAndLimitsTests {
    @Test func sniffReadsMagicBytes() throws {
        #expect(ImageFormat.sniff(try readFile("\(fixturesDirectory)/pngsuite/basn6a08.png")) == .png)
        #expect(ImageFormat.sniff(try readFile("\(fixturesDirectory)/jpeg/libjpeg-turbo/testorig.jpg")) == .jpeg)
        #expect(ImageFormat.sniff(Array("GIF89a.....".utf8)) == nil)
        #expect(ImageFormat.sniff([UInt8]()) == nil)
        #expect(ImageFormat.sniff([0xFF, 0xD8]) == nil)
    }

    @Test(arguments: [
        (Array("GIF89a\u{1}\u{0}\u{1}\u{0}".utf8), "GIF"),
        (Array("BM\u{10}\u{0}\u{0}\u{0}\u{0}\u{0}".utf8), "BMP"),
        (Array("%PDF-1.7\n".utf8), "PDF"),
    ])
    func otherFormatNamedPNGIsAnErrorNamingTheFile(bytes: [UInt8], looksLike: String) throws {
        let error = try #require(throws: ImageError.self) { try ImageDecoder.decode(bytes, name: "holiday.png") }
        #expect(error.reason == .unknownFormat(looksLike: looksLike))
        #expect(error.description.hasPrefix("holiday.png: "))
        #expect(error.description.contains(looksLike))
    }

    @Test func emptyFileIsAnError() throws {
        let error = try #require(throws: ImageError.self) { try ImageDecoder.decode([], name: "empty.png") }
        #expect(error.reason == .empty)
        #expect(error.description == "empty.png: the file is empty")
    }

    @Test(arguments: [8, 20, 33, 60, 200, 1000, 3000, 3400])
    func truncatedPNGIsAnErrorNamingTheFile(keep: Int) throws {
        let full = try readFile("\(fixturesDirectory)/pngsuite/basn6a16.png")  // 3435 bytes
        #expect(keep < full.count)
        let error = try #require(throws: ImageError.self) {
            _ = try ImageDecoder.decode(Array(full.prefix(keep)), name: "cut.png")
        }
        #expect(error.file == "cut.png" && error.format == .png)
        guard case .corrupt = error.reason else { Issue.record("expected .corrupt, got \(error)"); return }
    }

    @Test(arguments: [2, 100, 700, 2000, 4000])
    func truncatedJPEGIsAnErrorNamingTheFile(keep: Int) throws {
        let full = try readFile("\(fixturesDirectory)/jpeg/libjpeg-turbo/testorig.jpg")
        let error = try #require(throws: ImageError.self) {
            _ = try ImageDecoder.decode(Array(full.prefix(keep)), name: "cut.jpg")
        }
        #expect(error.file == "cut.jpg")
        #expect(error.description.hasPrefix("cut.jpg: "))
    }

    @Test func pngNamedJPGDecodesAsPNG() throws {
        let bytes = try readFile("\(fixturesDirectory)/pngsuite/basn6a08.png")
        let decoded = try ImageDecoder.decode(bytes, name: "photo.jpg")
        #expect(decoded.info.format == .png)
        #expect(decoded.pixels.width == 32)
    }

    @Test func fileErrorsNameThePath() throws {
        let missing = "no-such-dir/missing.png"
        let error = try #require(throws: ImageError.self) { try ImageDecoder.decode(contentsOf: missing) }
        #expect(error.description.hasPrefix(missing + ": cannot read the file"))

        // In the temporary folder: a test never writes into the source tree.
        let gifPath = NSTemporaryDirectory() + "/techo-sniff-test-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).png"
        let f = try #require(fopen(gifPath, "wb"))
        let gif = Array("GIF87a\u{1}\u{0}\u{1}\u{0}".utf8)
        fwrite(gif, 1, gif.count, f)
        fclose(f)
        defer { unlink(gifPath) }
        let e2 = try #require(throws: ImageError.self) { try ImageDecoder.decode(contentsOf: gifPath) }
        #expect(e2.file == gifPath && e2.reason == .unknownFormat(looksLike: "GIF"))
        let small = ImageLimits(maxFileBytes: 4)
        let e3 = try #require(throws: ImageError.self) { try ImageDecoder.decode(contentsOf: gifPath, limits: small) }
        #expect(e3.reason == .fileTooLarge(bytes: gif.count, limit: 4))
    }

    @Test func hugePNGHeaderIsRefusedBeforeAllocating() throws {
        let png = craftedPNG(width: 100_000, height: 100_000)
        // 100000² RGBA would be 40 GB: reaching the allocation would crash this test.
        let error = try #require(throws: ImageError.self) { try ImageDecoder.decode(png, name: "huge.png") }
        #expect(error.reason == .tooLarge(width: 100_000, height: 100_000, limits: .default))
        #expect(error.description.hasPrefix("huge.png: PNG image is 100000x100000 pixels"))
        let infoError = try #require(throws: ImageError.self) { try ImageDecoder.info(of: png, name: "huge.png") }
        #expect(infoError.reason == error.reason)
    }

    @Test func pngOverThePixelLimitButNotTheSideLimitIsRefused() throws {
        let png = craftedPNG(width: 20_000, height: 20_000)  // 400 MP, sides under 32768
        let error = try #require(throws: ImageError.self) { try ImageDecoder.decode(png, name: "big.png") }
        #expect(error.reason == .tooLarge(width: 20_000, height: 20_000, limits: .default))
    }

    @Test func pngJustInsideTheLimitsIsNotRefusedForSize() throws {
        // 32768 x 4 passes the limits; the tiny IDAT then fails as corrupt data, not as too large.
        let error = try #require(throws: ImageError.self) {
            try ImageDecoder.decode(craftedPNG(width: 32768, height: 4), name: "wide.png")
        }
        guard case .corrupt = error.reason else { Issue.record("expected .corrupt, got \(error)"); return }
    }

    @Test(arguments: [(65000, 65000), (40000, 100), (20000, 20000)])
    func hugeJPEGHeaderIsRefusedBeforeAllocating(width: Int, height: Int) throws {
        let jpeg = try craftedJPEG(width: width, height: height)
        let error = try #require(throws: ImageError.self) { try ImageDecoder.decode(jpeg, name: "huge.jpg") }
        #expect(error.reason == .tooLarge(width: width, height: height, limits: .default))
        #expect(error.description.hasPrefix("huge.jpg: JPEG image is \(width)x\(height) pixels"))
    }

    @Test func customLimitsApplyToRealFiles() throws {
        let jpeg = try readFile("\(fixturesDirectory)/jpeg/libjpeg-turbo/testorig.jpg")
        let png = try readFile("\(fixturesDirectory)/pngsuite/basn6a08.png")
        let tight = ImageLimits(maxSide: 200, maxPixels: 1000)
        let e = try #require(throws: ImageError.self) { try ImageDecoder.decode(jpeg, name: "a.jpg", limits: tight) }
        #expect(e.description == "a.jpg: JPEG image is 227x149 pixels, over the limit of 200 px a side and 1000 pixels")
        #expect(throws: ImageError.self) { try ImageDecoder.decode(png, name: "a.png", limits: tight) }
        #expect(throws: ImageError.self) { try ImageDecoder.decode(png, name: "a.png", limits: ImageLimits(maxSide: 31)) }
        #expect(try ImageDecoder.decode(png, name: "a.png", limits: ImageLimits(maxSide: 32, maxPixels: 1024)).pixels.width == 32)
    }

    @Test func limitsArithmetic() {
        let l = ImageLimits.default
        #expect(l.maxSide == 32768 && l.maxPixels == 100_000_000)
        #expect(l.allows(width: 32768, height: 3000))
        #expect(!l.allows(width: 32769, height: 1))
        #expect(!l.allows(width: 10001, height: 10000))
        #expect(!l.allows(width: 0, height: 10))
        #expect(!l.allows(width: Int.max, height: Int.max))
    }
}
