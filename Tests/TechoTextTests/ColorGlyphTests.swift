// Colour emoji bitmaps: reductions keep premultiplication and average exactly.
import TechoRaster
import Testing

@testable import TechoText

@Test func halvingAveragesEachTwoByTwoBlock() {
    // 3×2 so the odd last column repeats.
    let px: [UInt8] = [
        200, 0, 0, 200, 0, 100, 0, 100, 10, 10, 10, 20,
        100, 0, 0, 100, 0, 0, 0, 0, 30, 30, 30, 40,
    ]
    let h = ColorGlyph.halved(Pixmap(width: 3, height: 2, premultiplied: px))
    h.checkInvariants()
    #expect(h.width == 2 && h.height == 1)
    #expect(h.pixel(0, 0) == (75, 25, 0, 100))  // (200+0+100+0)/4, (0+100+0+0)/4, …, (200+100+100+0)/4
    #expect(h.pixel(1, 0) == (20, 20, 20, 30))  // column 2 twice: (10+10+30+30)/4, alpha (20+20+40+40)/4
}

@Test func emojiReductionIsChosenSoTheRemainingScaleIsAtLeastHalf() throws {
    let t = try TextLayout.layout("🌸", style: TextStyle(font: TestFonts.dejaVuSans, size: 32))
    let g = try #require(t.glyphs.first)
    guard case .image(let cg) = g.kind else { Issue.record("not an image glyph"); return }
    #expect(!cg.reductions.isEmpty)
    for r in cg.reductions { r.checkInvariants() }
    #expect(cg.image(forScale: 1).factor == 1)
    #expect(cg.image(forScale: 0.5).factor == 1)
    let (img, f) = cg.image(forScale: 32 / cg.ppem)  // ≈ 0.29: one halving
    #expect(f == 2 && img.width == (cg.image.width + 1) / 2)
    #expect(cg.image(forScale: 0.1).factor == 8)
}
