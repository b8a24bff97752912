// A PNG made again from an earlier file of the encoder's, keeping the bands of rows that did not
// change: byte for byte the file a whole encode writes, and refused for any other file.
import TechoRaster
import Testing

@testable import TechoCodecs

@Suite struct PNGPatchTests {
    /// An opaque pixmap of noise and gradients (so every band compresses differently), with the
    /// rows `changed` drawn from another seed.
    static func image(width: Int, height: Int, seed: UInt64, changed: Range<Int> = 0..<0, other: UInt64 = 99) -> Pixmap {
        var p = Pixmap(width: width, height: height)
        for y in 0..<height {
            var s = (changed.contains(y) ? other : seed) &* 6_364_136_223_846_793_005 &+ UInt64(y) &* 1_442_695_040_888_963_407
            for x in 0..<width {
                s = s &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                let n = UInt8(truncatingIfNeeded: s >> 59)
                let i = 4 * (y * width + x)
                p.data[i] = UInt8(truncatingIfNeeded: x + y / 7) &+ n
                p.data[i + 1] = UInt8(truncatingIfNeeded: y / 3) &+ n
                p.data[i + 2] = 128 &+ n
                p.data[i + 3] = 255
            }
        }
        return p
    }

    @Test func keptBandsAndRemadeOnesGiveTheWholeEncodesBytes() throws {
        let w = 300, h = 8000
        let bands = PNGEncoder.bands(width: w, height: h)
        #expect(bands.count == 4 && bands.first == 0..<2327, "\(bands)")
        let old = try PNGEncoder.encode(Self.image(width: w, height: h, seed: 1), dpi: 300)
        // Rows in band 2 changed, then rows across bands 1 and 2, then none.
        for changed in [5000..<5100, 2300..<2400] {
            let new = Self.image(width: w, height: h, seed: 1, changed: changed)
            let whole = try PNGEncoder.encode(new, dpi: 300)
            let touched = bands.indices.filter { bands[$0].overlaps(changed) }
            let patched = PNGEncoder.patched(
                old, width: w, height: h, changed: touched.first!..<(touched.last! + 1), rows: new, firstRow: 0, dpi: 300)
            #expect(patched == whole, "rows \(changed): the patched file differs from the whole encode")
            // The rows of the bands made again, and the one above, are all it needs.
            let from = max(0, bands[touched.first!].lowerBound - 1), to = bands[touched.last!].upperBound
            var part = Pixmap(width: w, height: to - from)
            part.data = Array(new.data[(4 * w * from)..<(4 * w * to)])
            #expect(
                PNGEncoder.patched(old, width: w, height: h, changed: touched.first!..<(touched.last! + 1), rows: part, firstRow: from, dpi: 300)
                    == whole)
        }
        #expect(PNGEncoder.patched(old, width: w, height: h, changed: 0..<0, rows: nil, firstRow: 0, dpi: 300) == old)
    }

    @Test func anyOtherFileIsRefused() throws {
        let w = 300, h = 5000
        let old = try PNGEncoder.encode(Self.image(width: w, height: h, seed: 1), dpi: 300)
        let new = Self.image(width: w, height: h, seed: 1, changed: 10..<20)
        func patch(_ file: [UInt8], width: Int = 300, height: Int = 5000, dpi: Double = 300, level: Int = 6) -> [UInt8]? {
            PNGEncoder.patched(file, width: width, height: height, changed: 0..<1, rows: new, firstRow: 0, dpi: dpi, level: level)
        }
        #expect(patch(old) != nil)
        var flipped = old
        flipped[old.count - 2000] ^= 0x01  // inside the last band's compressed data
        #expect(patch(flipped) == nil, "a byte of a kept band changed")
        #expect(patch(Array(old.dropLast(20))) == nil, "truncated")
        #expect(patch(old, dpi: 72) == nil, "another dpi")
        #expect(patch(old, level: 9) == nil, "another level")
        #expect(patch(old, height: 4999) == nil, "another size")
        #expect(patch(try PNGEncoder.encodeWithLibPNG(Self.image(width: w, height: h, seed: 1), dpi: 300)) == nil, "libpng's file")
        var translucent = new
        translucent.data[3] = 200
        #expect(PNGEncoder.patched(old, width: w, height: h, changed: 0..<1, rows: translucent, firstRow: 0, dpi: 300) == nil, "translucent rows")
    }
}
