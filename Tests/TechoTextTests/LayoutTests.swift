// Line layout: wrapping, kinsoku, alignment, line height, centring, limits.
import TechoGeometry
import TechoRaster
import Testing

@testable import TechoText

private func lineTexts(_ t: LaidOutText, _ s: String) -> [String] {
    let chars = Array(s)
    return t.lines.map { String(chars[$0.sourceRange]) }
}

@Test func latinWrapsBetweenWordsWithinMaxWidth() throws {
    let s = "the quick brown fox jumps over the lazy dog"
    let style = TextStyle(font: TestFonts.dejaVuSans, size: 32, maxWidth: 200)
    let t = try TextLayout.layout(s, style: style)
    #expect(t.lines.count >= 3)
    for l in t.lines { #expect(l.rect.width <= 200 + 1e-9) }
    let texts = lineTexts(t, s)
    // Every line ends at a word boundary and together they give back the text.
    #expect(texts.joined() == s)
    for line in texts.dropLast() { #expect(line.hasSuffix(" "), "line '\(line)' split a word") }
    // Greedy: the next word would not have fitted.
    let words = s.split(separator: " ").map(String.init)
    #expect(texts.flatMap { $0.split(separator: " ").map(String.init) } == words)
    #expect(t.width <= 200 + 1e-9)
}

@Test func wordLongerThanTheLineIsSplitNotOverflowing() throws {
    let t = try TextLayout.layout("abcdefghijklmnopqrstuvwxyz", style: TextStyle(font: TestFonts.dejaVuSans, size: 32, maxWidth: 100))
    #expect(t.lines.count > 1)
    for l in t.lines { #expect(l.rect.width <= 100 + 1e-9) }
}

@Test func cjkWrapsBetweenAnyCharacters() throws {
    let s = String(repeating: "京都の旅は楽しい", count: 3)  // 24 full-width characters, no spaces
    let t = try TextLayout.layout(s, style: TextStyle(font: TestFonts.notoSansCJK, size: 32, maxWidth: 200))
    // 200 / 32 = 6.25: six characters a line.
    #expect(t.lines.count == 4)
    for l in t.lines {
        #expect(l.rect.width <= 200 + 1e-9)
        #expect(l.sourceRange.count == 6)
    }
}

@Test(arguments: [
    // (text, characters per line at 32 px in 160 px, the line-2 start we expect)
    ("あいうえお。かきくけこ", "お。"),  // 。 may not start a line: お moves down with it
    ("あいうえお、かきくけこ", "お、"),
    ("あいうえ「かきくけこ」", "「か"),  // 「 may not end a line
    ("あいうえおっかきくけこ", "おっ"),  // small っ may not start a line
    ("あいうえおーかきくけこ", "おー"),
])
func kinsokuKeepsPunctuationOffTheWrongLineEnd(text: String, secondLineStart: String) throws {
    let t = try TextLayout.layout(text, style: TextStyle(font: TestFonts.notoSansCJK, size: 32, maxWidth: 160))
    let lines = lineTexts(t, text)
    #expect(lines.count >= 2)
    #expect(lines.count >= 2 && lines[1].hasPrefix(secondLineStart), "lines \(lines)")
    for l in lines.dropFirst() {
        #expect(!(l.unicodeScalars.first.map(CharClass.isNoLineStart) ?? false), "line starts with closing punctuation: \(lines)")
    }
    for l in lines { #expect(!(l.unicodeScalars.last.map(CharClass.isNoLineEnd) ?? false), "line ends with an opening bracket: \(lines)") }
}

@Test func explicitNewlinesMakeLinesAndLineHeightSpacesThem() throws {
    let style = TextStyle(font: TestFonts.dejaVuSans, size: 40, lineHeight: 1.5)
    let t = try TextLayout.layout("one\ntwo\r\nthree\n", style: style)
    #expect(t.lines.count == 4)  // a trailing newline opens an empty last line
    #expect(abs(t.height - 4 * 60) < 1e-9)
    for i in 1..<t.lines.count { #expect(abs(t.lines[i].baseline - t.lines[i - 1].baseline - 60) < 1e-9) }
}

@Test(arguments: TextAlign.allCases)
func alignmentPlacesEachLineInTheBox(align: TextAlign) throws {
    let style = TextStyle(font: TestFonts.dejaVuSans, size: 30, align: align)
    let t = try TextLayout.layout("a\nmuch longer line\nmid line", style: style)
    t.checkInvariants()
    let box = t.bounds
    for l in t.lines {
        switch align {
        case .left: #expect(abs(l.rect.minX - box.minX) < 1e-9)
        case .center: #expect(abs(l.rect.midX) < 1e-9)
        case .right: #expect(abs(l.rect.maxX - box.maxX) < 1e-9)
        }
    }
    // The widest line fills the box whatever the alignment.
    #expect(abs(t.lines.map(\.rect.width).max()! - box.width) < 1e-9)
    // Glyphs of the short line "a" sit inside its line box.
    let aGlyph = t.glyphs[0]
    #expect(aGlyph.bounds.minX >= t.lines[0].rect.minX - 1 && aGlyph.bounds.maxX <= t.lines[0].rect.maxX + 1)
}

@Test func boxIsCentredOnTheOrigin() throws {
    let t = try TextLayout.layout("Kyoto\nDay 1", style: TextStyle(font: TestFonts.dejaVuSans, size: 50))
    t.checkInvariants()
    #expect(abs(t.bounds.midX) < 1e-9 && abs(t.bounds.midY) < 1e-9)
    #expect(abs(t.height - 2 * 1.2 * 50) < 1e-9)
    let ink = t.inkBounds
    #expect(ink.minX >= t.bounds.minX - 2 && ink.maxX <= t.bounds.maxX + 2)
    #expect(ink.minY >= t.bounds.minY && ink.maxY <= t.bounds.maxY)
}

@Test func capitalIHasTheFontsCapHeightAndSitsOnTheBaseline() throws {
    // DejaVu Sans: cap height 1493 units of 2048.
    let t = try TextLayout.layout("I", style: TextStyle(font: TestFonts.dejaVuSans, size: 200))
    let b = try #require(t.glyphs.first?.path).controlBounds
    #expect(abs(b.height - 200 * 1493 / 2048) < 0.5, "height \(b.height)")
    #expect(abs(b.maxY - t.lines[0].baseline) < 1e-6)
}

@Test func letterSpacingAddsBetweenCharacters() throws {
    let plain = try TextLayout.layout("abcd", style: TextStyle(font: TestFonts.dejaVuSans, size: 30))
    let spaced = try TextLayout.layout("abcd", style: TextStyle(font: TestFonts.dejaVuSans, size: 30, letterSpacing: 5))
    #expect(abs(spaced.width - plain.width - 15) < 1e-9)
}

@Test func emptyTextIsOneEmptyLine() throws {
    let t = try TextLayout.layout("", style: TextStyle(size: 20))
    #expect(t.width == 0 && t.lines.count == 1 && t.glyphs.isEmpty)
}

@Test(arguments: [
    (TextStyle(size: 0), "size"), (TextStyle(size: 2001), "size"), (TextStyle(size: .nan), "size"),
    (TextStyle(lineHeight: 0), "lineHeight"), (TextStyle(maxWidth: -5), "maxWidth"),
    (TextStyle(letterSpacing: .infinity), "letterSpacing"), (TextStyle(weight: 0), "weight"),
    (TextStyle(outline: TextOutline(color: .black, width: 0)), "outline.width"),
])
func outOfRangeStyleNamesTheField(style: TextStyle, field: String) {
    #expect {
        _ = try TextLayout.layout("x", style: style)
    } throws: { e in
        guard case TextError.invalid(let f, _, _) = e else { return false }
        return f == field && "\(e)".hasPrefix(field)
    }
}

@Test func tooMuchTextIsRefused() throws {
    let long = String(repeating: "a", count: TextLayout.maxScalars + 1)
    #expect(throws: TextError.tooLong(count: TextLayout.maxScalars + 1, limit: TextLayout.maxScalars)) {
        _ = try TextLayout.layout(long, style: TextStyle())
    }
    // Exactly at the limit is fine.
    _ = try TextLayout.layout(String(long.dropLast()), style: TextStyle(font: TestFonts.dejaVuSans, size: 10, maxWidth: 1000))
}

@Test func hyphenatedWordMayBreakAfterItsHyphen() throws {
    let s = "well-known"
    let whole = try TextLayout.layout(s, style: TextStyle(font: TestFonts.dejaVuSans, size: 32))
    let t = try TextLayout.layout(s, style: TextStyle(font: TestFonts.dejaVuSans, size: 32, maxWidth: whole.width - 20))
    #expect(lineTexts(t, s) == ["well-", "known"])
}

@Test func everyGlyphNamesTheClusterItDraws() throws {
    // What the PDF's text map is built from: each glyph points at its cluster, in order, with
    // the cluster's face; a space has no glyph but keeps its cluster, as does a letter a
    // ligature took into the glyph before it.
    let s = "Hi 京都 fi 🌸"
    let t = try TextLayout.layout(s, style: TextStyle(font: TestFonts.dejaVuSans, size: 32))
    #expect(t.clusters.map(\.text).joined() == s)
    var last = -1
    for g in t.glyphs {
        #expect(g.cluster >= last, "glyphs follow their clusters' order")
        last = g.cluster
        let c = t.clusters[g.cluster]
        #expect(c.face == g.face, "glyph \(g.glyphID) is drawn by its cluster's face")
        #expect(g.bounds.midX >= c.rect.minX - 1 && g.bounds.midX <= c.rect.maxX + 1, "glyph \(g.glyphID) lies in \(c.text)'s box")
    }
    let drawn = Set(t.glyphs.map(\.cluster))
    // Only spaces, and the second letter of the "fi" ligature (its glyph is the first's), have none.
    let bare = t.clusters.indices.filter { !drawn.contains($0) }.map { t.clusters[$0].text }
    #expect(bare == [" ", " ", "i", " "], "\(bare)")
}
