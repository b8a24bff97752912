import Foundation
import TechoGeometry
import TechoTestSupport
import Testing

@testable import TechoRaster

/// Drawing pixmaps through transforms: exact copies, sampling, prefiltering, edges.
@Suite struct ImageDrawingTests {
    static func noise(_ w: Int, _ h: Int, seed: UInt64, opaque: Bool = false) -> Pixmap {
        var rng = SplitMix64(seed: seed)
        var p = Pixmap(width: w, height: h)
        for y in 0..<h {
            for x in 0..<w {
                let a = opaque ? 255 : UInt8(rng.int(in: 0...255))
                p.setPixel(x, y, (UInt8(rng.int(in: 0...Int(a))), UInt8(rng.int(in: 0...Int(a))), UInt8(rng.int(in: 0...Int(a))), a))
            }
        }
        return p
    }

    @Test func transformsAreClassified() {
        #expect(TransformKind(.identity) == .identity)
        #expect(TransformKind(.translation(3, -4)) == .integerTranslate(3, -4))
        #expect(TransformKind(.translation(3.5, 0)) == .scaleTranslate)
        #expect(TransformKind(.scale(2)) == .scaleTranslate)
        #expect(TransformKind(.rotation(degrees: 10)) == .affine)
    }

    @Test func identityAndWholePixelMovesCopyExactly() {
        let img = Self.noise(20, 15, seed: 1, opaque: true)
        var a = Pixmap(width: 20, height: 15)
        a.draw(img, transform: .identity)
        #expect(a == img)
        var b = Pixmap(width: 30, height: 30)
        b.draw(img, transform: .translation(7, -3))
        for y in 0..<30 {
            for x in 0..<30 {
                let sx = x - 7, sy = y + 3
                let want = sx >= 0 && sx < 20 && sy >= 0 && sy < 15 ? img.pixel(sx, sy) : (0, 0, 0, 0)
                #expect(b.pixel(x, y) == want, "(\(x), \(y))")
            }
        }
    }

    @Test func wholePixelCopyBlendsTranslucentPixelsLikeTheReference() {
        let img = Self.noise(16, 16, seed: 2)
        var dst = Self.noise(16, 16, seed: 3)
        let before = dst
        dst.draw(img, transform: .identity, opacity: 0.6, blendMode: .multiply)
        for i in 0..<(16 * 16) {
            let s = RGBA8(r: img.data[4 * i], g: img.data[4 * i + 1], b: img.data[4 * i + 2], a: img.data[4 * i + 3])
            let d = RGBA8(r: before.data[4 * i], g: before.data[4 * i + 1], b: before.data[4 * i + 2], a: before.data[4 * i + 3])
            let w = referenceBlend(s, d, coverage: 153, mode: .multiply)
            #expect(Array(dst.data[(4 * i)..<(4 * i + 4)]) == [w.r, w.g, w.b, w.a])
        }
    }

    @Test(arguments: [ImageFilter.nearest, .bilinear, .good])
    func constantImageStaysConstantUnderAnyTransform(filter: ImageFilter) {
        var img = Pixmap(width: 40, height: 30)
        img.fill(r: 30, g: 60, b: 90, a: 200)
        var dst = Pixmap(width: 100, height: 100)
        let t = Transform.translation(-20, -15).concatenating(.rotation(degrees: 33)).concatenating(.scale(1.7, 1.2))
            .concatenating(.translation(50, 50))
        dst.draw(img, transform: t, filter: filter)
        #expect(dst.pixel(50, 50) == (30, 60, 90, 200))
        #expect(dst.pixel(0, 0) == (0, 0, 0, 0))
        dst.checkInvariants()
    }

    @Test func imageEdgesAreAntiAliasedByExactArea() {
        // An opaque white 10x10 image at (5.5, 5.25): the drawn alpha sums to its area, and
        // the left column of pixels is half covered.
        var img = Pixmap(width: 10, height: 10)
        img.fill(r: 255, g: 255, b: 255, a: 255)
        var dst = Pixmap(width: 24, height: 24)
        dst.draw(img, transform: .translation(5.5, 5.25))
        let total = stride(from: 3, to: dst.data.count, by: 4).reduce(0.0) { $0 + Double(dst.data[$1]) } / 255
        #expect(abs(total - 100) < 0.1)
        #expect(abs(Int(dst.pixel(5, 10).a) - 128) <= 1)
        #expect(dst.pixel(10, 10).a == 255)
        // Rotated: the area is kept too.
        var r = Pixmap(width: 40, height: 40)
        r.draw(img, transform: Transform.translation(-5, -5).concatenating(.rotation(degrees: 27)).concatenating(.translation(20.3, 19.6)))
        let rt = stride(from: 3, to: r.data.count, by: 4).reduce(0.0) { $0 + Double(r.data[$1]) } / 255
        #expect(abs(rt - 100) < 0.2)
    }

    @Test func bilinearInterpolatesBetweenPixelCentres() {
        // Two pixels, black and white (opaque); scaled 4x, the middle of the image is mid grey
        // and the ends keep their colours.
        var img = Pixmap(width: 2, height: 1)
        img.setPixel(0, 0, (0, 0, 0, 255)); img.setPixel(1, 0, (255, 255, 255, 255))
        var dst = Pixmap(width: 8, height: 4)
        dst.draw(img, transform: .scale(4), filter: .bilinear)
        let row = (0..<8).map { Int(dst.pixel($0, 1).r) }
        #expect(row[0] == 0 && row[1] == 0 && row[6] == 255 && row[7] == 255)
        #expect(row == row.sorted())
        #expect(abs(row[3] - 96) <= 1 && abs(row[4] - 159) <= 1, "\(row)")
    }

    @Test func downsampleAveragesBoxes() {
        var img = Pixmap(width: 5, height: 3)
        for y in 0..<3 { for x in 0..<5 { img.setPixel(x, y, (UInt8(x * 10), 0, 0, 255)) } }
        let d = img.downsampled(by: 2)
        #expect(d.width == 3 && d.height == 2)
        #expect(d.pixel(0, 0).r == 5)  // (0 + 10) / 2
        #expect(d.pixel(2, 0).r == 40)  // the lone last column
        #expect(d.pixel(1, 1).r == 25)
        d.checkInvariants()
    }

    @Test(arguments: [ImageFilter.bilinear, .good])
    func shrinkingAFinePatternDoesNotAlias(filter: ImageFilter) {
        // A one-pixel checkerboard drawn at 1/8 (and at an odd 0.17 with rotation) must come
        // out as even grey, not a moiré of black and white.
        var img = Pixmap(width: 256, height: 256)
        for y in 0..<256 { for x in 0..<256 where (x + y) % 2 == 0 { img.setPixel(x, y, (255, 255, 255, 255)) } }
        for y in 0..<256 { for x in 0..<256 where (x + y) % 2 == 1 { img.setPixel(x, y, (0, 0, 0, 255)) } }
        for t in [Transform.scale(0.125), Transform.rotation(degrees: 12).concatenating(.scale(0.17)).concatenating(.translation(10, 2))] {
            var dst = Pixmap(width: 64, height: 64)
            dst.draw(img, transform: t, filter: filter)
            var values: [Int] = []
            for y in 12..<26 { for x in 14..<28 where dst.pixel(x, y).a == 255 { values.append(Int(dst.pixel(x, y).r)) } }
            #expect(!values.isEmpty)
            #expect(values.allSatisfy { abs($0 - 128) <= 8 }, "\(values.min() ?? 0)...\(values.max() ?? 0)")
        }
    }

    @Test func squashingOneAxisAveragesAlongThatAxisOnly() {
        // Vertical one-pixel stripes squashed 8x across and stretched 2x down: the result is
        // even grey (no moiré), while horizontal detail survives in a second image.
        var stripes = Pixmap(width: 256, height: 32)
        for y in 0..<32 { for x in 0..<256 { let v: UInt8 = x % 2 == 0 ? 255 : 0; stripes.setPixel(x, y, (v, v, v, 255)) } }
        var dst = Pixmap(width: 40, height: 70)
        dst.draw(stripes, transform: .scale(0.125, 2), filter: .good)
        for x in 2..<30 { #expect(abs(Int(dst.pixel(x, 30).r) - 128) <= 2, "x=\(x) \(dst.pixel(x, 30))") }
        var bands = Pixmap(width: 256, height: 32)
        for y in 0..<32 { for x in 0..<256 { let v: UInt8 = y < 16 ? 255 : 0; bands.setPixel(x, y, (v, v, v, 255)) } }
        var dst2 = Pixmap(width: 40, height: 70)
        dst2.draw(bands, transform: .scale(0.125, 2), filter: .good)
        #expect(dst2.pixel(10, 10).r == 255 && dst2.pixel(10, 50).r == 0)
    }

    @Test func partialPrefilterBoxesKeepTheirFractionalEdge() {
        // 30 px shrunk 8x is 3.75 px: the fourth column is three-quarters covered, not whole.
        var img = Pixmap(width: 30, height: 16)
        img.fill(r: 255, g: 255, b: 255, a: 255)
        var dst = Pixmap(width: 8, height: 4)
        dst.draw(img, transform: .scale(0.125), filter: .good)
        #expect(dst.pixel(2, 1).a == 255)
        #expect(abs(Int(dst.pixel(3, 1).a) - 191) <= 1, "\(dst.pixel(3, 1))")
        #expect(dst.pixel(4, 1).a == 0)
        // A multiple of the factor still takes the exact whole-pixel path.
        var img32 = Pixmap(width: 32, height: 16)
        img32.fill(r: 255, g: 255, b: 255, a: 255)
        var d32 = Pixmap(width: 8, height: 4)
        d32.draw(img32, transform: .scale(0.125), filter: .good)
        #expect(d32.pixel(3, 1).a == 255 && d32.pixel(4, 1).a == 0)
    }

    @Test func nearestKeepsPixelsBlocky() {
        var img = Pixmap(width: 2, height: 2)
        img.setPixel(0, 0, (255, 0, 0, 255)); img.setPixel(1, 1, (0, 0, 255, 255))
        var dst = Pixmap(width: 8, height: 8)
        dst.draw(img, transform: .scale(4), filter: .nearest)
        #expect(dst.pixel(3, 3) == (255, 0, 0, 255))
        #expect(dst.pixel(4, 4) == (0, 0, 255, 255))
        #expect(dst.pixel(4, 3) == (0, 0, 0, 0))
    }

    @Test func singularOrNonFiniteTransformsDrawNothing() {
        let img = Self.noise(8, 8, seed: 4, opaque: true)
        for t in [
            Transform.scale(0), Transform(a: 1, b: 0, c: 0, d: .infinity, tx: 0, ty: 0),
            Transform(a: .nan, b: 0, c: 0, d: 1, tx: 0, ty: 0), Transform.scale(1e300),
        ] {
            var dst = Pixmap(width: 16, height: 16)
            dst.draw(img, transform: t)
            dst.checkInvariants()
            if t.a != 1e300 { #expect(dst == Pixmap(width: 16, height: 16)) }
        }
    }

    @Test func hugeShrinkIsBoundedAndCorrect() {
        var img = Pixmap(width: 300, height: 200)
        img.fill(r: 10, g: 20, b: 30, a: 255)
        var dst = Pixmap(width: 8, height: 8)
        dst.draw(img, transform: Transform.scale(1e-6).concatenating(.translation(4, 4)), filter: .good)
        dst.checkInvariants()
        #expect(dst.pixel(4, 4).a < 2)
    }
}

/// Seeded fuzzing of image drawing with extreme transforms.
@Suite struct ImageDrawingFuzzTests {
    @Test func extremeTransformsNeverTrap() {
        var rng = SplitMix64(seed: 123)
        let specials: [Double] = [
            0, 1, -1, 1e-300, 1e-160, 1e-7, 0.5, 2, 1e7, 1e38, 1e154, 1e300, -1e300,
            .greatestFiniteMagnitude, 3.5, -7.25,
        ]
        func v() -> Double { rng.int(in: 0...2) == 0 ? rng.double(in: -40...40) : specials[rng.int(in: 0...(specials.count - 1))] }
        let img = ImageDrawingTests.noise(7, 5, seed: 1)
        for i in 0..<3000 {
            let t = Transform(a: v(), b: v(), c: v(), d: v(), tx: v(), ty: v())
            var dst = Pixmap(width: 12, height: 12)
            dst.draw(
                img, transform: t, opacity: rng.double(in: 0...1), blendMode: BlendMode.allCases[i % BlendMode.allCases.count],
                filter: ImageFilter.allCases[i % 3])
            dst.checkInvariants()
        }
    }
}
