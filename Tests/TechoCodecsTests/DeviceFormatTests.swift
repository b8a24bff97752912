// Conformance of the formats phones and sticker packs use: HEIC / HEIF and AVIF (libheif),
// WebP (libwebp) and SVG (librsvg), from files made by the real encoders (Fixtures/devices,
// see its README for the commands), and their corrupt and hostile cases.
import Foundation
import TechoGeometry
import TechoRaster
import Testing

@testable import TechoCodecs

private let devices = "\(fixturesDirectory)/devices"

private func fixture(_ name: String) throws -> [UInt8] { try readFile("\(devices)/\(name)") }

/// The source every encoded fixture was made from, as displayed: 64x48, red, green, blue and
/// white quadrants.
private func quad(_ name: String = "quad.png") throws -> RGBAImage {
    try ImageDecoder.decodeStraight(try fixture("source/\(name)"), name: name).pixels
}

/// The colour at the centre of each quadrant (TL, TR, BL, BR) of a 64x48 displayed image.
private func quadrants(_ img: RGBAImage) -> [[Int]] {
    [(16, 12), (48, 12), (16, 36), (48, 36)].map { (x, y) in
        let i = (y * img.width + x) * 4
        return (0..<4).map { Int(img.bytes[i + $0]) }
    }
}

private func maxDelta(_ a: [[Int]], _ b: [[Int]]) -> Int {
    zip(a, b).map { zip($0, $1).map { abs($0 - $1) }.max() ?? 0 }.max() ?? 0
}

/// Mean absolute difference per channel over the whole image.
private func meanDelta(_ a: RGBAImage, _ b: RGBAImage) -> Double {
    precondition(a.width == b.width && a.height == b.height)
    let total = zip(a.bytes, b.bytes).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }
    return Double(total) / Double(a.bytes.count)
}

@Suite struct DeviceSniffTests {
    @Test(arguments: [
        ("quad.heic", ImageFormat.heif), ("quad-10bit.heic", .heif), ("quad-orient6.heic", .heif),
        ("quad.avif", .avif), ("quad-alpha.avif", .avif),
        ("quad-lossy.webp", .webp), ("quad-lossless.webp", .webp), ("anim.webp", .webp),
        ("svg/star.svg", .svg), ("svg/billion-laughs.svg", .svg), ("svg/viewbox-only.svg", .svg),
    ])
    func everyFixtureIsToldByItsBytes(file: String, format: ImageFormat) throws {
        #expect(ImageFormat.sniff(try fixture(file)) == format)
    }

    @Test func aWebPNamedPNGIsReadAsWebP() throws {
        let d = try ImageDecoder.decodeStraight(try fixture("quad-lossless.webp"), name: "cat.png")
        #expect(d.info.format == .webp)
        #expect(d.pixels == (try quad()))
    }

    @Test func aCorruptWebPNamedPNGIsAnErrorNamingWebP() throws {
        let bytes = Array(try fixture("quad-lossy.webp").prefix(40))
        let e = try #require(throws: ImageError.self) { try ImageDecoder.decode(bytes, name: "cat.png") }
        #expect(e.format == .webp)
        #expect(e.description.hasPrefix("cat.png: corrupt WebP data: "), "\(e)")
    }

    @Test(arguments: [
        ("<html><body>no</body></html>", false), ("<?xml version=\"1.0\"?>\n<svg/>", true),
        ("\u{FEFF}  <!-- c --><!DOCTYPE svg [<!ENTITY a \"b>\">]><svg/>", true), ("<svg:svg xmlns:svg=\"x\"/>", true),
        ("<?xml version=\"1.0\"?><html/>", false), ("svg", false),
    ])
    func svgIsMarkupWhoseRootIsSvg(text: String, isSVG: Bool) {
        #expect((ImageFormat.sniff(Array(text.utf8)) == .svg) == isSVG)
    }

    @Test func otherISOMediaIsNamedByItsBrand() throws {
        var bytes = try fixture("quad.heic")
        // An MP4 ftyp: brand isom, compatible isom and mp41.
        let ftyp: [UInt8] = [0, 0, 0, 20] + Array("ftypisom".utf8) + [0, 0, 2, 0] + Array("isommp41".utf8)
        bytes.replaceSubrange(0..<Int(bytes[3]), with: ftyp)
        let e = try #require(throws: ImageError.self) { try ImageDecoder.info(of: bytes, name: "clip.heic") }
        #expect(e.description.contains("brand 'isom'"), "\(e)")
    }
}

@Suite struct HEIFConformanceTests {
    @Test func lossyHEICMatchesItsSource() throws {
        let d = try ImageDecoder.decodeStraight(try fixture("quad.heic"), name: "quad.heic")
        #expect(d.info == ImageInfo(format: .heif, width: 64, height: 48, hasAlpha: false))
        #expect(maxDelta(quadrants(d.pixels), quadrants(try quad())) <= 6)
        #expect(meanDelta(d.pixels, try quad()) < 6)
    }

    /// Lossless HEVC of 4:4:4 samples: within 1 of the source (heif-enc 1.15 writes no nclx
    /// box for RGB, so the decoder converts through YCbCr and rounds).
    @Test func losslessHEICIsWithinOne() throws {
        let d = try ImageDecoder.decodeStraight(try fixture("quad-lossless.heic"), name: "q.heic")
        let src = try quad()
        #expect(zip(d.pixels.bytes, src.bytes).allSatisfy { abs(Int($0) - Int($1)) <= 1 })
    }

    @Test func tenBitHEICIsReducedToEightBits() throws {
        let d = try ImageDecoder.decodeStraight(try fixture("quad-10bit.heic"), name: "q.heic")
        #expect(maxDelta(quadrants(d.pixels), quadrants(try quad())) <= 6)
    }

    @Test(arguments: ["quad-alpha.heic", "quad-alpha.avif"])
    func alphaComesFromTheAlphaImage(file: String) throws {
        let data = try fixture(file)
        #expect(try ImageDecoder.info(of: data, name: file).hasAlpha == true)
        let d = try ImageDecoder.decodeStraight(data, name: file)
        let src = try quad("quad-alpha.png")
        // Opaque left half, fading right half, as in the source.
        var worst = 0
        for y in 0..<48 { for x in 0..<64 { worst = max(worst, abs(Int(d.pixels.bytes[(y * 64 + x) * 4 + 3]) - Int(src.bytes[(y * 64 + x) * 4 + 3]))) } }
        #expect(worst <= 8, "alpha differs by \(worst)")
        #expect(d.pixels.bytes[(12 * 64 + 8) * 4 + 3] == 255)
    }

    @Test func avifMatchesItsSource() throws {
        let d = try ImageDecoder.decodeStraight(try fixture("quad.avif"), name: "quad.avif")
        #expect(d.info.format == .avif && d.info.width == 64 && d.info.height == 48)
        #expect(maxDelta(quadrants(d.pixels), quadrants(try quad())) <= 8)
    }

    /// Stored turned, with irot/imir boxes and an EXIF orientation that agree: turned upright
    /// once. Applying the EXIF tag again would put the quadrants in the wrong places.
    @Test(arguments: [5, 6, 8])
    func orientationIsAppliedExactlyOnce(orientation: Int) throws {
        let data = try fixture("quad-orient\(orientation).heic")
        let blocks = try HEIFDecoding.exifBlocks(data, file: "o.heic")
        let tiff = try #require(HEIFMetadata.exifTIFFRange(blocks[0], item: 0..<blocks[0].count))
        let reader = try #require(TIFFReader(blocks[0], range: tiff))
        let ifd0 = try #require(reader.ifd0)
        let entry = try #require(reader.entries(at: ifd0)?.first { $0.tag == 0x0112 })
        #expect(reader.u16(absolute: entry.valueField) == orientation, "the file's EXIF says the same orientation")

        let info = try ImageDecoder.info(of: data, name: "o.heic")
        #expect(info.naturalWidth == 64 && info.naturalHeight == 48 && info.orientation == .up)
        let d = try ImageDecoder.decode(data, name: "o.heic")
        let straight = RGBAImage(width: d.pixels.width, height: d.pixels.height, bytes: d.pixels.straightRGBA())
        #expect(maxDelta(quadrants(straight), quadrants(try quad())) <= 8, "\(quadrants(straight))")
    }

    @Test func limitsAreCheckedOnTheHeader() throws {
        let e = try #require(throws: ImageError.self) {
            try ImageDecoder.info(of: try fixture("quad.heic"), name: "q.heic", limits: ImageLimits(maxSide: 32))
        }
        #expect(e.reason == .tooLarge(width: 64, height: 48, limits: ImageLimits(maxSide: 32)), "\(e)")
    }

    /// `ispe` boxes claiming 40000x40000: refused from the header, before any pixel is decoded.
    @Test func aHugeDeclaredSizeIsRefused() throws {
        var data = try fixture("quad.heic")
        var from = 0
        while let ispe = find(Array("ispe".utf8), in: data, from: from) {
            for k in 0..<2 { data.replaceSubrange((ispe + 8 + 4 * k)..<(ispe + 12 + 4 * k), with: [0, 0, 0x9C, 0x40] as [UInt8]) }
            from = ispe + 4
        }
        let e = try #require(throws: ImageError.self) { try ImageDecoder.info(of: data, name: "big.heic") }
        #expect(e.reason == .tooLarge(width: 40000, height: 40000, limits: .default), "\(e)")
    }

    /// Regression: a grid whose `dimg` references lead back to itself made libheif 1.15 recurse
    /// until the stack overflowed (or abort when it could start no more tile threads). Found by
    /// `techo-fuzz heif --seed 1401`.
    @Test func aGridMadeFromItselfIsRefused() throws {
        let data = try fixture("hostile/grid-cycle.heic")
        let e = try #require(throws: ImageError.self) { try ImageDecoder.decode(data, name: "loop.heic") }
        #expect(e.description.contains("made from itself"), "\(e)")
        #expect(HEIFReferenceCheck.derivations(try fixture("quad.heic")).values.allSatisfy { !$0.isEmpty })
    }

    /// Regression: item 4, a grid made from item 2, is also named by `auxl` as item 2's alpha, so
    /// decoding 2 decoded its alpha 4, which decoded 2 again, until libheif 1.15 overflowed the
    /// stack inside libde265. Found by `make fuzz` (target heif) in its 30-minute run.
    @Test func anAlphaImageMadeFromItsOwnImageIsRefused() throws {
        let data = try readFile("\(fixturesDirectory)/../../../Fuzz/regressions/heif/alpha-image-is-a-grid-made-from-its-own-image.heic")
        #expect(HEIFReferenceCheck.derivations(data)[2]?.contains(4) == true)
        for op in [{ _ = try ImageDecoder.info(of: data, name: "alpha.heic") }, { _ = try ImageDecoder.decode(data, name: "alpha.heic") }] {
            let e = try #require(throws: ImageError.self) { try op() }
            #expect(e.description.contains("made from itself") && e.description.contains("alpha.heic"), "\(e)")
        }
    }

    @Test(arguments: [12, 24, 40, 100, 300, 500, 700])
    func truncatedHEICIsAnError(keep: Int) throws {
        let data = Array(try fixture("quad.heic").prefix(keep))
        let e = try #require(throws: ImageError.self) { try ImageDecoder.decode(data, name: "cut.heic") }
        #expect(e.file == "cut.heic")
    }

    @Test func gpsIsRemovedFromTheExifItemInPlace() throws {
        let data = try fixture("quad-orient6.heic")
        #expect(HEIFMetadata.containsGPS(data))
        let clean = try HEIFMetadata.removingGPS(data, file: "IMG.heic")
        #expect(!HEIFMetadata.containsGPS(clean))
        #expect(clean.count == data.count)
        // libheif, an independent reader, finds the EXIF without GPS but with its orientation.
        let block = try #require(try HEIFDecoding.exifBlocks(clean, file: "IMG.heic").first)
        let tiff = try #require(HEIFMetadata.exifTIFFRange(block, item: 0..<block.count))
        #expect(!JPEGMetadata.tiffContainsGPS(block, tiff: tiff))
        let before = try #require(try HEIFDecoding.exifBlocks(data, file: "IMG.heic").first)
        let beforeTIFF = try #require(HEIFMetadata.exifTIFFRange(before, item: 0..<before.count))
        #expect(JPEGMetadata.tiffContainsGPS(before, tiff: beforeTIFF))
        #expect(try ImageDecoder.decodeStraight(clean, name: "c").pixels == (try ImageDecoder.decodeStraight(data, name: "d").pixels))
        // A file without GPS is unchanged.
        let plain = try fixture("quad.heic")
        #expect(try HEIFMetadata.removingGPS(plain, file: "q.heic") == plain)
    }
}

@Suite struct WebPConformanceTests {
    @Test func losslessIsExact() throws {
        let data = try fixture("quad-lossless.webp")
        let d = try ImageDecoder.decodeStraight(data, name: "q.webp")
        #expect(d.info == ImageInfo(format: .webp, width: 64, height: 48, hasAlpha: false))
        #expect(d.pixels == (try quad()))
    }

    @Test func lossyMatchesItsSource() throws {
        let d = try ImageDecoder.decodeStraight(try fixture("quad-lossy.webp"), name: "q.webp")
        #expect(maxDelta(quadrants(d.pixels), quadrants(try quad())) <= 8)
        #expect(meanDelta(d.pixels, try quad()) < 8)
    }

    @Test func losslessAlphaIsExact() throws {
        let d = try ImageDecoder.decodeStraight(try fixture("quad-alpha-lossless.webp"), name: "q.webp")
        #expect(d.info.hasAlpha == true)
        #expect(d.pixels == (try quad("quad-alpha.png")))
    }

    @Test func lossyWithAlphaKeepsTheAlphaPlane() throws {
        let d = try ImageDecoder.decodeStraight(try fixture("quad-alpha.webp"), name: "q.webp")
        let src = try quad("quad-alpha.png")
        let alpha = stride(from: 3, to: src.bytes.count, by: 4).map { abs(Int(d.pixels.bytes[$0]) - Int(src.bytes[$0])) }.max() ?? 0
        #expect(alpha <= 2)
    }

    @Test func anAnimationGivesItsFirstFrame() throws {
        let data = try fixture("anim.webp")
        let d = try ImageDecoder.decodeStraight(data, name: "anim.webp")
        #expect(d.info.width == 64 && d.info.height == 48)
        #expect(d.pixels == (try quad()))
    }

    @Test func aSmallerSizeIsDecodedScaled() throws {
        let d = try ImageDecoder.decode(try fixture("quad-lossless.webp"), name: "q.webp", minimumSize: (16, 12))
        #expect(d.scaleDenominator == 4 && d.pixels.width == 16 && d.pixels.height == 12)
        let small = RGBAImage(width: 16, height: 12, bytes: d.pixels.straightRGBA())
        #expect(small.bytes[(3 * 16 + 4) * 4] == 255 && small.bytes[(3 * 16 + 4) * 4 + 1] == 0, "top-left stays red")
    }

    @Test func limitsAreCheckedOnTheHeader() throws {
        let e = try #require(throws: ImageError.self) {
            try ImageDecoder.info(of: try fixture("anim.webp"), name: "a.webp", limits: ImageLimits(maxSide: 40))
        }
        #expect(e.reason == .tooLarge(width: 64, height: 48, limits: ImageLimits(maxSide: 40)))
    }

    /// A VP8X header claiming a 16384x16384 canvas (268 megapixels): refused before decoding.
    @Test func aHugeCanvasIsRefused() throws {
        var data = try fixture("anim.webp")
        #expect(Array(data[12..<16]) == Array("VP8X".utf8))
        let m = 16383  // stored minus one, 24-bit little-endian
        for base in [24, 27] { data[base] = UInt8(m & 0xFF); data[base + 1] = UInt8(m >> 8 & 0xFF); data[base + 2] = 0 }
        let e = try #require(throws: ImageError.self) { try ImageDecoder.decode(data, name: "huge.webp") }
        #expect(e.reason == .tooLarge(width: 16384, height: 16384, limits: .default), "\(e)")
    }

    @Test(arguments: [12, 20, 30, 50, 100, 150])
    func truncatedWebPIsAnError(keep: Int) throws {
        for file in ["quad-lossy.webp", "anim.webp", "quad-alpha.webp"] {
            let data = try fixture(file)
            guard keep < data.count else { continue }
            let e = try #require(throws: ImageError.self) { try ImageDecoder.decode(Array(data.prefix(keep)), name: "cut.webp") }
            #expect(e.file == "cut.webp")
        }
    }
}

@Suite struct SVGConformanceTests {
    private func svg(_ name: String) throws -> [UInt8] { try fixture("svg/\(name)") }

    @Test(arguments: [("star.svg", 64, 64), ("viewbox-only.svg", 120, 60), ("millimetres.svg", 96, 48), ("percent.svg", 30, 10)])
    func naturalSizeFromWidthHeightOrViewBox(file: String, width: Int, height: Int) throws {
        let info = try ImageDecoder.info(of: try svg(file), name: file)
        #expect(info == ImageInfo(format: .svg, width: width, height: height, hasAlpha: true))
    }

    /// Known pixels: an opaque red square and a half-transparent blue one, at 1x and 4x. At 4x
    /// the edge between them falls exactly on a pixel boundary, as only a vector render gives.
    @Test(arguments: [1, 4])
    func rendersAtTheSizeAsked(scale: Int) throws {
        let p = try SVGRendering.render(try svg("squares.svg"), name: "s.svg", width: 40 * scale, height: 20 * scale)
        func px(_ x: Int, _ y: Int) -> [UInt8] { Array(p.data[((y * p.width + x) * 4)..<((y * p.width + x) * 4 + 4)]) }
        let mid = 20 * scale
        #expect(px(0, 0) == [255, 0, 0, 255] && px(mid - 1, 10 * scale) == [255, 0, 0, 255])
        // Premultiplied half blue: 128 or 127 in blue and alpha.
        let blue = px(mid, 10 * scale)
        #expect(blue[0] == 0 && blue[1] == 0 && abs(Int(blue[2]) - 128) <= 1 && abs(Int(blue[3]) - 128) <= 1, "\(blue)")
    }

    @Test(arguments: [
        ("no-size.svg", "declares no size"), ("huge-size.svg", "over the limit"), ("zero-size.svg", "SVG"),
        ("malformed.svg", "corrupt SVG data"), ("billion-laughs.svg", "SVG"), ("use-bomb.svg", "more than 100000 elements"),
    ])
    func hostileDocumentsAreRefused(file: String, message: String) throws {
        let e = try #require(throws: ImageError.self) {
            let bytes = try svg(file)
            _ = try ImageDecoder.info(of: bytes, name: file)
            _ = try ImageDecoder.decode(bytes, name: file)
        }
        #expect(e.file == file && e.format == .svg)
        #expect(e.description.contains(message), "\(e)")
    }

    /// References to files and URLs outside the document draw nothing, even when the file is
    /// there; a `data:` image inside the document is drawn.
    @Test func nothingOutsideTheDocumentIsReached() throws {
        let outside = "\(devices)/source/quad.png"
        #expect(FileManager.default.fileExists(atPath: outside))
        for href in [outside, "file://" + outside, "source/quad.png"] {
            let text = String(decoding: try svg("external-refs.svg"), as: UTF8.self).replacingOccurrences(of: "EXTERNAL_PNG", with: href)
            let p = try SVGRendering.render(Array(text.utf8), name: "ext.svg", width: 40, height: 20)
            #expect(p.data.allSatisfy { $0 == 0 }, "\(href) was drawn")
        }
        let inline = "data:image/png;base64," + Data(try fixture("source/quad.png")).base64EncodedString()
        let text = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"64\" height=\"48\"><image width=\"64\" height=\"48\" href=\"\(inline)\"/></svg>"
        let p = try SVGRendering.render(Array(text.utf8), name: "inline.svg", width: 64, height: 48)
        #expect(Array(p.data[((12 * 64 + 16) * 4)..<((12 * 64 + 16) * 4 + 4)]) == [255, 0, 0, 255])
    }

    @Test func theUseBudgetCountsNestedReferences() {
        let chain =
            "<svg><defs><rect id=\"a\"/><g id=\"b\"><use href=\"#a\"/><use href=\"#a\"/></g>"
            + "<g id=\"c\"><use xlink:href=\"#b\"/><use xlink:href='#b'/><use href=\"#b\"/></g></defs><use href=\"#c\"/></svg>"
        // c = 1 + 3 × b, b = 1 + 2 × a, a = 1: c = 10.
        #expect(SVGReferenceBudget.instancedElements(Array(chain.utf8)) == 10)
        let cycle = "<svg><g id=\"x\"><use href=\"#y\"/></g><g id=\"y\"><use href=\"#x\"/></g><use href=\"#x\"/></svg>"
        #expect(SVGReferenceBudget.instancedElements(Array(cycle.utf8)) <= 3)
    }
}

@Suite struct DeviceFormatRobustnessTests {
    /// Seeded byte flips of every fixture: each ends in a decoded image or an ImageError.
    @Test(arguments: ["quad.heic", "quad-alpha.avif", "quad-lossy.webp", "anim.webp", "quad-alpha-lossless.webp", "svg/star.svg"])
    func mutatedFilesNeverCrash(file: String) throws {
        let original = try fixture(file)
        var rng = SplitMix64(seed: UInt64(original.count))
        for _ in 0..<60 {
            var data = original
            for _ in 0..<(1 + Int(rng.next() % 4)) {
                data[Int(rng.next() % UInt64(data.count))] = rng.byte()
            }
            do {
                let d = try ImageDecoder.decode(data, name: file, limits: ImageLimits(maxSide: 4096, maxPixels: 4_000_000))
                #expect(d.pixels.width > 0 && d.pixels.height > 0)
            } catch is ImageError {
            }
        }
    }
}

private func find(_ needle: [UInt8], in hay: [UInt8], from: Int = 0) -> Int? {
    guard hay.count >= needle.count + from else { return nil }
    for i in from...(hay.count - needle.count) where Array(hay[i..<(i + needle.count)]) == needle { return i }
    return nil
}
