// Shaping through HarfBuzz: kerning, ligatures, marks, bidi order, Arabic joining.
import TechoGeometry
import Testing

@testable import TechoText

private func layout(
    _ s: String, font: String = TestFonts.dejaVuSans, size: Double = 100,
    spacing: Double = 0
) throws -> LaidOutText {
    try TextLayout.layout(s, style: TextStyle(font: font, size: size, letterSpacing: spacing))
}

@Test func kerningMakesAVNarrowerThanItsLetters() throws {
    let av = try layout("AV"), a = try layout("A"), v = try layout("V")
    #expect(av.width < a.width + v.width - 1, "AV \(av.width) vs A+V \(a.width + v.width)")
    // Kerning moves V, not A's outline: A's glyph is the same glyph either way.
    #expect(av.glyphs.count == 2)
}

@Test func fiBecomesOneLigatureGlyphUnlessLettersAreSpaced() throws {
    let fi = try layout("fi")
    #expect(fi.glyphs.count == 1, "expected the fi ligature, got \(fi.glyphs.count) glyphs")
    #expect(fi.clusters.count == 2)
    #expect(fi.clusters[1].rect.width == 0, "the i is inside the ligature's advance")
    // Letter spacing turns ligatures off, as CSS does, so the spacing falls between f and i.
    let spaced = try layout("fi", spacing: 10)
    #expect(spaced.glyphs.count == 2)
    let f = try layout("f"), i = try layout("i")
    #expect(abs(spaced.width - (f.width + i.width + 10)) < 1e-6)
}

@Test func combiningMarkStaysWithItsBaseAboveIt() throws {
    let t = try layout("e\u{301}x")  // e + combining acute, not precomposed
    #expect(t.clusters.count == 2, "e + mark is one grapheme cluster")
    let eGlyphs = t.glyphs.filter { $0.bounds.maxX <= t.clusters[0].rect.maxX + 10 && $0.bounds.minX < t.clusters[1].rect.minX }
    #expect(eGlyphs.count >= 1)
    // Whether the font composes é or positions a mark, ink rises above the x-height of "x".
    let xTop = t.glyphs.last.map(\.bounds.minY) ?? 0
    let eTop = eGlyphs.map(\.bounds.minY).min() ?? 0
    #expect(eTop < xTop - 10, "accent top \(eTop) should be above x top \(xTop)")
}

@Test func hebrewRunIsDrawnRightToLeft() throws {
    let t = try layout("שלום")
    // Visual order left to right is the reverse of logical order.
    #expect(t.clusters.map(\.sourceIndex) == [3, 2, 1, 0])
    let xs = t.clusters.map(\.rect.minX)
    #expect(xs == xs.sorted())
}

@Test func hebrewInsideLatinKeepsLatinOrderAndReversesOnlyTheHebrew() throws {
    let t = try layout("ab שלום cd")
    let order = t.clusters.map(\.sourceIndex)
    #expect(order == [0, 1, 2, 6, 5, 4, 3, 7, 8, 9])
}

@Test func rtlParagraphPutsLeadingLatinOnTheRight() throws {
    let t = try layout("שלום abc")
    // An RTL paragraph: the Hebrew word comes first from the right, "abc" stays LTR on the left.
    #expect(t.clusters.map(\.sourceIndex) == [5, 6, 7, 4, 3, 2, 1, 0])
}

@Test func arabicLettersJoin() throws {
    let joined = try layout("سلام"), alone = try layout("س")
    #expect(joined.clusters.map(\.sourceIndex) == [3, 2, 1, 0])
    let seen = joined.glyphs.first { $0.bounds.minX >= joined.clusters[3].rect.minX - 1 && $0.bounds.maxX <= joined.clusters[3].rect.maxX + 20 }
    #expect(seen != nil)
    // The initial form of seen is a different glyph from the isolated one.
    #expect(joined.glyphs.last?.glyphID != alone.glyphs.first?.glyphID)
}

@Test func hanAfterLatinIsShapedAsHanSoJapaneseFormsApply() throws {
    // Noto Sans CJK SC (face 2) draws 直 in its Chinese form unless shaped as Han with a
    // Japanese language tag (set because the paragraph has kana); then `locl` picks the
    // Japanese form, also when Latin comes first in the paragraph.
    let sc = TestFonts.notoSansCJK + "#2"
    let chinese = try TextLayout.layout("直", style: TextStyle(font: sc, size: 40))
    let japanese = try TextLayout.layout("直の", style: TextStyle(font: sc, size: 40))
    let mixed = try TextLayout.layout("Kyoto 直の", style: TextStyle(font: sc, size: 40))
    let zh = try #require(chinese.glyphs.first?.glyphID), ja = try #require(japanese.glyphs.first?.glyphID)
    #expect(zh != ja, "locl ja changes 直")
    let naoInMixed = mixed.glyphs[mixed.glyphs.count - 2].glyphID
    #expect(naoInMixed == ja)
}
