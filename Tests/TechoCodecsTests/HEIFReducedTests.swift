// A HEIC decoded smaller than its pixels (a photo drawn small, the import's probe) takes libheif's
// YCbCr planes and reduces them before converting: the result must be what the whole decode,
// box-averaged by the same power of two, gives, within rounding, for grids, turned images and
// every reduction; and what cannot be reduced that way (alpha, 10 bits) must still decode whole.
import Foundation
import Testing

@testable import TechoCodecs
@testable import TechoRaster

private let devices = "\(fixturesDirectory)/devices"

@Suite struct HEIFReducedTests {
    /// The whole decode, shrunk by `d` the way the image cache shrinks a decode.
    private func wholeThenShrunk(_ bytes: [UInt8], _ d: Int) throws -> Pixmap {
        let whole = try ImageDecoder.decode(bytes, name: "whole.heic")
        #expect(whole.scaleDenominator == 1)
        return whole.pixels.downsampled(by: d)
    }

    @Test(arguments: ["grid-2x2.heic", "quad.heic", "quad-orient5.heic", "quad-orient6.heic", "quad-orient8.heic"])
    func aReducedDecodeIsTheWholeOneShrunk(name: String) throws {
        let bytes = try readFile("\(devices)/\(name)")
        let info = try ImageDecoder.info(of: bytes, name: name)
        for d in [2, 4, 8] {
            let need = ((info.width + d - 1) / d, (info.height + d - 1) / d)
            let reduced = try ImageDecoder.decode(bytes, name: name, minimumSize: need)
            // The reduced path was taken: the decoder says by how much it shrank.
            #expect(reduced.scaleDenominator == d, "\(name) at 1/\(d)")
            // Tiles of 64 px (or one coded image): the check at 1/8 takes this path too.
            #expect(reduced.standsForCheck, "\(name) at 1/\(d)")
            let reference = try wholeThenShrunk(bytes, d)
            #expect(reduced.pixels.width == reference.width && reduced.pixels.height == reference.height)
            var worst = 0, total = 0
            for (a, b) in zip(reduced.pixels.data, reference.data) {
                let diff = abs(Int(a) - Int(b))
                worst = max(worst, diff)
                total += diff
            }
            let mean = Double(total) / Double(reference.data.count)
            // libheif converts each pixel in fixed point and clamps before the average; this
            // converts each average once, and from 1/4 on skips the in-loop filters: apart from
            // rounding and the filters' small smoothing, the same.
            #expect(worst <= 4 && mean <= 0.6, "\(name) at 1/\(d): worst \(worst), mean \(mean)")
        }
    }

    @Test(arguments: ["quad-alpha.heic", "quad-10bit.heic", "quad-lossless.heic"])
    func whatCannotBeReducedDecodesWhole(name: String) throws {
        // Alpha, 10 bits, 4:4:4 chroma: libheif decodes these whole.
        let bytes = try readFile("\(devices)/\(name)")
        let info = try ImageDecoder.info(of: bytes, name: name)
        let decoded = try ImageDecoder.decode(bytes, name: name, minimumSize: (info.width / 4, info.height / 4))
        #expect(decoded.scaleDenominator == 1)
        #expect(decoded.pixels.width == info.width && decoded.pixels.height == info.height)
        #expect(decoded.standsForCheck, "libheif's whole decode is the check's too")
    }

    /// A grid whose tiles' sides are not multiples of 8, decoded at 1/2 or 1/4 by the tile
    /// path: the check at 1/8 would leave it to libheif, so this decode does not stand for it.
    /// (grid-2x2.heic with its tiles' `ispe` changed from 64x64 to 60x60: still covering the
    /// 120x100 picture, and libde265 decodes its 64 px tiles as before.)
    @Test func aGridOfOddTilesDecodedSmallerDoesNotStandForTheCheck() throws {
        var bytes = try readFile("\(devices)/grid-2x2.heic")
        let tileSize: [UInt8] = Array("ispe".utf8) + [0, 0, 0, 0, 0, 0, 0, 64, 0, 0, 0, 64]
        var patched = 0
        for i in 0..<(bytes.count - tileSize.count) where bytes[i..<(i + tileSize.count)].elementsEqual(tileSize) {
            bytes[i + 11] = 60
            bytes[i + 15] = 60
            patched += 1
        }
        try #require(patched > 0)
        for d in [2, 4] {
            let decoded = try ImageDecoder.decode(bytes, name: "odd.heic", minimumSize: (120 / d, 100 / d))
            #expect(decoded.scaleDenominator == d && !decoded.standsForCheck, "at 1/\(d)")
        }
        let whole = try readFile("\(devices)/grid-2x2.heic")
        for d in [2, 4, 8] {
            #expect(try ImageDecoder.decode(whole, name: "grid.heic", minimumSize: (120 / d, 100 / d)).standsForCheck, "at 1/\(d)")
        }
    }

    @Test func otherFormatsDecodesStandAsTheySay() throws {
        for name in ["quad.avif", "quad-alpha.avif"] {
            #expect(try ImageDecoder.decode(try readFile("\(devices)/\(name)"), name: name, minimumSize: (8, 6)).standsForCheck, "\(name)")
        }
        #expect(try !ImageDecoder.decode(try readFile("\(devices)/quad-lossy.webp"), name: "q.webp").standsForCheck)
    }

    @Test func theProbeStillReadsTheWholeStream() throws {
        // The import's probe decodes at the smallest size; a file cut short still fails it.
        let bytes = try readFile("\(devices)/grid-2x2.heic")
        #expect(try ImageProbe.check(bytes, name: "grid.heic").width == 120)
        let cut = Array(bytes.prefix(bytes.count - 200))
        #expect(throws: ImageError.self) { try ImageProbe.check(cut, name: "cut.heic") }
    }
}
