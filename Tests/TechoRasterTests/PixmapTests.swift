import Testing

@testable import TechoRaster

/// Exhaustive checks of the alpha conversions against a `Double` oracle.
@Suite struct PixmapAlphaTests {
    @Test func premultiplyMatchesRoundedProductForEveryPair() {
        for a in 0...255 {
            for c in 0...255 {
                let oracle = (Double(c) * Double(a) / 255).rounded()
                #expect(Double(premultiply(UInt8(c), UInt8(a))) == oracle, "c=\(c) a=\(a)")
            }
        }
    }

    @Test func unpremultiplyMatchesRoundedQuotientForEveryValidPair() {
        for a in 1...255 {
            for p in 0...a {
                let oracle = min(255, (Double(p) * 255 / Double(a)).rounded())
                #expect(Double(unpremultiply(UInt8(p), UInt8(a))) == oracle, "p=\(p) a=\(a)")
            }
        }
        #expect(unpremultiply(0, 0) == 0)
    }

    @Test func straightRoundTripIsExactWhereInformationSurvives() {
        // Premultiplying loses information when a < 255; the round trip must still land within
        // the precision that alpha allows: |c - c'| ≤ 255 / (2a) + 0.5.
        for a in 1...255 {
            for c in 0...255 {
                let back = unpremultiply(premultiply(UInt8(c), UInt8(a)), UInt8(a))
                let bound = 255.0 / (2 * Double(a)) + 0.5
                #expect(abs(Double(back) - Double(c)) <= bound, "c=\(c) a=\(a) back=\(back)")
            }
        }
    }

    @Test func pixmapConvertsWholeBuffers() {
        let straight: [UInt8] = [255, 128, 0, 128, 10, 20, 30, 255, 99, 99, 99, 0]
        let p = Pixmap(width: 3, height: 1, straightRGBA: straight)
        #expect(p.data == [128, 64, 0, 128, 10, 20, 30, 255, 0, 0, 0, 0])
        p.checkInvariants()
        #expect(p.straightRGBA() == [255, 128, 0, 128, 10, 20, 30, 255, 0, 0, 0, 0])
        #expect(!p.isOpaque)
        var q = Pixmap(width: 2, height: 2)
        q.fill(r: 1, g: 2, b: 3, a: 255)
        #expect(q.isOpaque)
    }
}
