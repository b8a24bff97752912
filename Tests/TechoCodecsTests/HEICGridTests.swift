// A HEIC stored as a grid of HEVC tiles, the way phones store photos: Fixtures/devices/
// grid-2x2.heic (120x100 from source/grid.png, four 64 px tiles whose last column and row
// overhang the picture, written by `techo-assets heic-grid`; see that folder's README), decoded
// through techo's HEIF path. Each quadrant of the source is one tile and has its own colour, so
// a tile missing, decoded twice or put in the wrong place shows in that quadrant.
import Foundation
import Testing

@testable import TechoCodecs

private let devices = "\(fixturesDirectory)/devices"

/// Peak signal-to-noise ratio of `b` against `a` over the colour channels, dB.
private func psnr(_ a: RGBAImage, _ b: RGBAImage) -> Double {
    precondition(a.width == b.width && a.height == b.height)
    var sum = 0.0
    for i in stride(from: 0, to: a.bytes.count, by: 4) {
        for k in 0..<3 {
            let d = Double(Int(a.bytes[i + k]) - Int(b.bytes[i + k]))
            sum += d * d
        }
    }
    return sum == 0 ? .infinity : 10 * log10(255 * 255 / (sum / Double(a.width * a.height * 3)))
}

private func pixel(_ img: RGBAImage, _ x: Int, _ y: Int) -> [Int] {
    let i = (y * img.width + x) * 4
    return (0..<4).map { Int(img.bytes[i + $0]) }
}

@Suite struct HEICGridTests {
    let file: [UInt8]
    let source: RGBAImage

    init() throws {
        file = try readFile("\(devices)/grid-2x2.heic")
        source = try ImageDecoder.decodeStraight(try readFile("\(devices)/source/grid.png"), name: "grid.png").pixels
    }

    @Test func itIsAGridOfFourCodedTiles() throws {
        // One level of derived images: the grid, made from four tiles in row order.
        #expect(try HEIFReferenceCheck.check(file, format: .heif, file: "grid-2x2.heic") == 1)
        let graph = HEIFReferenceCheck.derivations(file)
        #expect(graph.count == 1)
        let (grid, tiles) = try #require(graph.first)
        // (`derivations` reads the references twice, its way and libheif's, and keeps both.)
        #expect(Set(tiles).count == 4 && !tiles.contains(grid))
        // Its ImageGrid descriptor (in idat): version 0, flags 0, rows - 1, columns - 1, size.
        let item = try #require(HEIFMetadata.items(file).first { $0.id == grid })
        #expect(item.type == "grid")
        let range = try #require(item.range)
        #expect(Array(file[range]) == [0, 0, 1, 1, 0, 120, 0, 100])
    }

    @Test func itDecodesAtItsSizeAndMatchesItsSource() throws {
        let decoded = try ImageDecoder.decodeStraight(file, name: "grid-2x2.heic")
        #expect(decoded.info.format == .heif)
        #expect(decoded.pixels.width == 120 && decoded.pixels.height == 100)
        #expect(decoded.pixels.isOpaque)
        // Lossy HEVC at quality 90: well above 35 dB (it measured 55 dB when made).
        let db = psnr(source, decoded.pixels)
        #expect(db >= 35, "PSNR \(db) dB")
        // The centre and the corners of each tile's part of the picture, the overhanging edge
        // included: each within 12 of the source.
        let points = [
            (32, 32), (92, 32), (32, 82), (92, 82), (0, 0), (63, 63), (64, 0), (119, 63), (0, 64), (63, 99), (64, 64), (119, 99),
        ]
        for (x, y) in points {
            let d = zip(pixel(source, x, y), pixel(decoded.pixels, x, y)).map { abs($0 - $1) }.max() ?? 0
            #expect(d <= 12, "pixel (\(x), \(y)): \(pixel(decoded.pixels, x, y)) against \(pixel(source, x, y))")
        }
    }

    @Test func everyTileIsDecodedInItsPlace() throws {
        let img = try ImageDecoder.decodeStraight(file, name: "grid-2x2.heic").pixels
        // Red, green, blue and white quadrants, one tile each (top-left, top-right, bottom-left,
        // bottom-right): the strongest channel of each centre, and white's weakest above 160.
        func strongest(_ p: [Int]) -> Int { (0..<3).max { p[$0] < p[$1] } ?? -1 }
        #expect(strongest(pixel(img, 32, 32)) == 0)
        #expect(strongest(pixel(img, 92, 32)) == 1)
        #expect(strongest(pixel(img, 32, 82)) == 2)
        #expect(pixel(img, 92, 82).prefix(3).allSatisfy { $0 > 160 })
    }
}
