// Punctuation, spaces and digits keep the forms of the face they are drawn in (issue 15, item
// 4): mixed lines in Noto Sans CJK SC at 48 px have the ink width HarfBuzz's own hb-view and
// PangoCairo give them, within 3 px. The reference widths were measured from the real tools'
// PNGs by `scripts/references/text-widths.sh` (see References/widths/README.md).
import Foundation
import TechoGeometry
import TechoRaster
import Testing

@testable import TechoText

/// The ink box width of `text` drawn into a pixmap: the columns holding any coverage, as the
/// reference script measures the tools' PNGs.
private func inkWidth(_ text: String, font: String, size: Double) throws -> Int {
    let t = try TextLayout.layout(text, style: TextStyle(font: font, size: size))
    let w = Int(t.width.rounded(.up)) + 64, h = Int(t.height.rounded(.up)) + 64
    var p = Pixmap(width: w, height: h)
    t.draw(into: &p, transform: .translation(Double(w) / 2, Double(h) / 2))
    var minX = Int.max, maxX = Int.min
    for y in 0..<h {
        for x in 0..<w where p.pixel(x, y).a > 0 {
            minX = min(minX, x)
            maxX = max(maxX, x)
        }
    }
    return maxX >= minX ? maxX - minX + 1 : 0
}

/// (text, hb-view width, pango-view width), px, from References/widths/sc-48px.tsv.
private func referenceWidths() throws -> [(String, Int, Int)] {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("References/widths/sc-48px.tsv")
    let rows = try String(contentsOf: url, encoding: .utf8).split(separator: "\n").filter { !$0.hasPrefix("#") }
    return try rows.map { row in
        let f = row.split(separator: "\t", omittingEmptySubsequences: false)
        guard f.count == 3, let hb = Int(f[1]), let pango = Int(f[2]) else {
            throw TextError.invalid(field: "sc-48px.tsv", value: String(row), expected: "text<TAB>hb-view<TAB>pango-view")
        }
        return (String(f[0]), hb, pango)
    }
}

@Test(.enabled(if: TestFonts.exists(TestFonts.notoSansCJK)))
func mixedLinesInNotoSansCJKSCHaveTheInkWidthOfHbViewAndPango() throws {
    let refs = try referenceWidths()
    #expect(refs.count >= 6)
    for (text, hb, pango) in refs {
        let techo = try inkWidth(text, font: TestFonts.notoSansCJK + "#2", size: 48)
        #expect(abs(techo - hb) <= 3, "\(text): techo \(techo) px, hb-view \(hb) px")
        #expect(abs(techo - pango) <= 3, "\(text): techo \(techo) px, pango-view \(pango) px")
    }
}

@Test(.enabled(if: TestFonts.exists(TestFonts.notoSansCJK)))
func middleDotAfterKanaIsTheRequestedFacesOwnGlyph() throws {
    // The dot after kana is the same glyph as the dot between two Han characters, where no
    // language hint applies: the face's own full-width dot, not a Japanese locl substitute.
    let sc = TestFonts.notoSansCJK + "#2"
    func dotGlyph(_ s: String, at index: Int) throws -> UInt32 {
        let t = try TextLayout.layout(s, style: TextStyle(font: sc, size: 48))
        let c = try #require(t.clusters.first { $0.sourceIndex == index })
        #expect(c.face == FaceKey(path: TestFonts.notoSansCJK, index: 2), "\(s): the dot is drawn from \(String(describing: c.face))")
        let g = try #require(t.glyphs.first { $0.bounds.midX >= c.rect.minX && $0.bounds.midX <= c.rect.maxX })
        return g.glyphID
    }
    let han = try dotGlyph("京 · 都", at: 2)
    #expect(try dotGlyph("の · K", at: 2) == han)
    #expect(try dotGlyph("京都の旅 · Kyoto", at: 5) == han)
    // Letters still take the Japanese forms when the paragraph has kana (see ShapingTests).
    let zh = try #require(try TextLayout.layout("直", style: TextStyle(font: sc, size: 40)).glyphs.first?.glyphID)
    let ja = try #require(try TextLayout.layout("直の", style: TextStyle(font: sc, size: 40)).glyphs.first?.glyphID)
    #expect(zh != ja)
}

/// Every file of References/widths is named in its README, which says what made it and how
/// `make references` remakes it: a reference added without its provenance fails.
@Test func everyWidthsReferenceIsNamedInItsReadme() throws {
    let dir = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("References/widths")
    let readme = try String(contentsOf: dir.appendingPathComponent("README.md"), encoding: .utf8)
    let names = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0 != "README.md" }
    #expect(!names.isEmpty)
    for name in names { #expect(readme.contains("`\(name)`"), "\(name) is not named in References/widths/README.md") }
}
