import TechoGeometry
import TechoTestSupport
import Testing

@testable import TechoRaster

/// The fast blend kernels against the scalar reference, exactly.
@Suite struct BlendTests {
    @Test func div255IsExactRoundingOverItsDomain() {
        for x in 0...(255 * 255) {
            #expect(div255(UInt32(x)) == UInt32((Double(x) / 255).rounded()), "x=\(x)")
        }
    }

    static func randomPremultiplied(_ rng: inout SplitMix64) -> RGBA8 {
        // Bias towards the edge cases: transparent, opaque, tiny alpha.
        let a: UInt8
        switch rng.int(in: 0...5) {
        case 0: a = 0
        case 1: a = 255
        case 2: a = UInt8(rng.int(in: 1...3))
        default: a = UInt8(rng.int(in: 0...255))
        }
        func ch() -> UInt8 { UInt8(rng.int(in: 0...Int(a))) }
        return RGBA8(r: ch(), g: ch(), b: ch(), a: a)
    }

    @Test(arguments: BlendMode.allCases)
    func fastPixelKernelMatchesReference(mode: BlendMode) {
        var rng = SplitMix64(seed: 42)
        for _ in 0..<20_000 {
            let s = Self.randomPremultiplied(&rng), d = Self.randomPremultiplied(&rng)
            let c = [0, 255, UInt8(rng.int(in: 0...255))][rng.int(in: 0...2)]
            var px: [UInt8] = [d.r, d.g, d.b, d.a]
            px.withUnsafeMutableBufferPointer { p in
                Blend.pixel(UInt32(s.r), UInt32(s.g), UInt32(s.b), UInt32(s.a), coverage: UInt32(c), p.baseAddress!, mode)
            }
            let want = referenceBlend(s, d, coverage: c, mode: mode)
            #expect(px == [want.r, want.g, want.b, want.a], "s=\(s) d=\(d) c=\(c)")
            #expect(px[0] <= px[3] && px[1] <= px[3] && px[2] <= px[3], "not premultiplied: \(px)")
        }
    }

    @Test(arguments: BlendMode.allCases)
    func spanKernelsMatchReference(mode: BlendMode) {
        var rng = SplitMix64(seed: 9)
        let n = 257
        for _ in 0..<40 {
            let solid = Self.randomPremultiplied(&rng)
            let src = (0..<n).map { _ in Self.randomPremultiplied(&rng) }
            let dst = (0..<n).map { _ in Self.randomPremultiplied(&rng) }
            // Runs of full coverage exercise the opaque fast path.
            let cov: [UInt8] = (0..<n).map { i in i % 50 < 30 ? 255 : UInt8(rng.int(in: 0...255)) }
            var a = dst.flatMap { [$0.r, $0.g, $0.b, $0.a] }
            var b = a
            let srcBytes = src.flatMap { [$0.r, $0.g, $0.b, $0.a] }
            a.withUnsafeMutableBufferPointer { p in
                cov.withUnsafeBufferPointer { c in Blend.solidSpan(solid, coverage: c.baseAddress!, count: n, p.baseAddress!, mode) }
            }
            b.withUnsafeMutableBufferPointer { p in
                cov.withUnsafeBufferPointer { c in
                    srcBytes.withUnsafeBufferPointer { s in Blend.span(s.baseAddress!, coverage: c.baseAddress!, count: n, p.baseAddress!, mode) }
                }
            }
            for i in 0..<n {
                let w1 = referenceBlend(solid, dst[i], coverage: cov[i], mode: mode)
                let w2 = referenceBlend(src[i], dst[i], coverage: cov[i], mode: mode)
                #expect(Array(a[(4 * i)..<(4 * i + 4)]) == [w1.r, w1.g, w1.b, w1.a], "solid pixel \(i)")
                #expect(Array(b[(4 * i)..<(4 * i + 4)]) == [w2.r, w2.g, w2.b, w2.a], "span pixel \(i)")
            }
        }
    }

    @Test func referenceFormulasOnKnownValues() {
        let red = RGBA8(r: 255, g: 0, b: 0, a: 255), blue = RGBA8(r: 0, g: 0, b: 255, a: 255)
        let halfRed = RGBA8(r: 128, g: 0, b: 0, a: 128)
        #expect(referenceBlend(red, blue, coverage: 255, mode: .sourceOver) == red)
        #expect(referenceBlend(halfRed, blue, coverage: 255, mode: .sourceOver) == RGBA8(r: 128, g: 0, b: 127, a: 255))
        #expect(referenceBlend(red, blue, coverage: 255, mode: .destinationOut) == .transparent)
        #expect(referenceBlend(red, blue, coverage: 128, mode: .clear) == RGBA8(r: 0, g: 0, b: 127, a: 127))
        #expect(referenceBlend(RGBA8(r: 255, g: 255, b: 255, a: 255), blue, coverage: 255, mode: .multiply) == blue)
        #expect(
            referenceBlend(RGBA8(r: 128, g: 128, b: 128, a: 255), RGBA8(r: 200, g: 100, b: 50, a: 255), coverage: 255, mode: .multiply)
                == RGBA8(r: 100, g: 50, b: 25, a: 255))
        #expect(referenceBlend(red, blue, coverage: 0, mode: .source) == blue)
        #expect(referenceBlend(halfRed, blue, coverage: 255, mode: .destinationIn) == RGBA8(r: 0, g: 0, b: 128, a: 128))
    }

    @Test func paintColourPremultipliesWithRounding() {
        #expect(Color(r: 1, g: 0.5, b: 0, a: 0.5).premultiplied8 == RGBA8(r: 128, g: 64, b: 0, a: 128))
        #expect(Color(r: 2, g: -1, b: .nan, a: 7).premultiplied8 == RGBA8(r: 255, g: 0, b: 0, a: 255))
        #expect(Color(r: 1, g: 1, b: 1, a: 0).premultiplied8 == .transparent)
    }
}
