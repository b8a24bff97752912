// Font resolution through fontconfig, fallback per cluster, warnings, determinism, threads.
import Foundation
import TechoGeometry
import Testing

@testable import TechoText

@Test func kyotoLineFallsBackPerCluster() throws {
    let s = "京都の旅 · Kyoto Day 1 🌸"
    let t = try TextLayout.layout(s, style: TextStyle(font: TestFonts.dejaVuSans, size: 48))
    #expect(t.warnings.isEmpty, "\(t.warnings)")
    for c in t.clusters {
        let path = try #require(c.face?.path, "cluster \(c.text) has no face")
        switch c.text {
        case "京", "都", "の", "旅": #expect(path == TestFonts.notoSansCJK, "\(c.text) from \(path)")
        case "🌸": #expect(path == TestFonts.notoColorEmoji)
        default: #expect(path == TestFonts.dejaVuSans, "\(c.text) from \(path)")
        }
        // Every visible cluster has a glyph whose box overlaps its advance box.
        if c.text != " " {
            #expect(t.glyphs.contains { !$0.bounds.intersection(c.rect).isEmpty }, "no glyph for \(c.text)")
        }
    }
    let emoji = try #require(t.glyphs.first { $0.isImage })
    guard case .image(let g) = emoji.kind else { return }
    // The emoji bitmap has colour: some pixel is clearly not grey.
    var coloured = 0
    for i in stride(from: 0, to: g.image.data.count, by: 4) {
        let r = Int(g.image.data[i]), gg = Int(g.image.data[i + 1]), b = Int(g.image.data[i + 2])
        if max(r, gg, b) - min(r, gg, b) > 60 { coloured += 1 }
    }
    #expect(coloured > 100)
    // Scaled from its 109 ppem strike to the text size: Noto's bitmaps are 1–1.2 em high.
    #expect(emoji.bounds.height >= 48 && emoji.bounds.height <= 48 * 1.25, "emoji height \(emoji.bounds.height)")
    #expect(emoji.bounds.width <= t.clusters.last!.rect.width + 1)
}

@Test func familyNameWeightAndItalicResolveThroughFontconfig() throws {
    let catalog = FontCatalog.shared
    func file(_ r: FontRequest) throws -> String {
        let chain = try catalog.chain(for: r)
        return (chain.candidates[0].key.path as NSString).lastPathComponent
    }
    #expect(try file(FontRequest(family: "DejaVu Sans")) == "DejaVuSans.ttf")
    #expect(try file(FontRequest(family: "DejaVu Sans", weight: 700)) == "DejaVuSans-Bold.ttf")
    #expect(try file(FontRequest(family: "DejaVu Sans", italic: true)) == "DejaVuSans-Oblique.ttf")
    #expect(try file(FontRequest(family: "DejaVu Sans", weight: 700, italic: true)) == "DejaVuSans-BoldOblique.ttf")
}

@Test func fontFileWithCollectionIndexIsAccepted() throws {
    let t = try TextLayout.layout("京", style: TextStyle(font: TestFonts.notoSansCJK + "#1", size: 20))
    #expect(t.clusters[0].face == FaceKey(path: TestFonts.notoSansCJK, index: 1))
}

@Test func missingFontFileIsAnErrorNamingIt() {
    #expect(throws: TextError.font(.fileNotFound(path: "/nonexistent/Font.ttf"))) {
        _ = try TextLayout.layout("x", style: TextStyle(font: "/nonexistent/Font.ttf"))
    }
}

@Test func uninstalledFamilyIsSubstitutedWithAWarning() throws {
    let t = try TextLayout.layout("x", style: TextStyle(font: "No Such Family Techo"))
    #expect(t.warnings.contains { if case .fontSubstituted(let r, let u) = $0 { return r == "No Such Family Techo" && !u.isEmpty } else { return false } })
    #expect(t.glyphs.count == 1)
}

@Test func charactersNoFontHasAreReportedNotDrawn() throws {
    // U+0378 is unassigned; U+10FFFD is private use no installed font maps.
    let t = try TextLayout.layout("a\u{378}b\u{10FFFD}\u{378}", style: TextStyle(font: TestFonts.dejaVuSans, size: 30))
    let missing = t.warnings.compactMap { w -> UInt32? in
        if case .missingGlyph(let s, _) = w { return s.value } else { return nil }
    }
    #expect(missing == [0x378, 0x10FFFD], "each named once, in order")
    #expect(t.glyphs.count == 2, "only a and b are drawn")
    #expect("\(t.warnings[0])" == "no installed font can draw U+0378 '\u{378}'")
    #expect(t.clusters.filter { $0.face == nil }.allSatisfy { $0.rect.width == 0 })
}

@Test func joinersAndVariationSelectorsAreNotReported() throws {
    let t = try TextLayout.layout("👩\u{200D}👩\u{200D}👧 ❤\u{FE0F}", style: TextStyle(font: TestFonts.dejaVuSans, size: 30))
    #expect(t.warnings.isEmpty, "\(t.warnings)")
    #expect(t.clusters.count == 3)
    #expect(t.clusters[0].face?.path == TestFonts.notoColorEmoji)
    #expect(t.clusters[2].face?.path == TestFonts.notoColorEmoji, "VS16 asks for the colour emoji")
    #expect(t.glyphs.filter(\.isImage).count == 2, "the family sequence is one glyph")
}

@Test func familiesListFiltersCaseInsensitively() {
    let all = FontCatalog.shared.families()
    let dv = FontCatalog.shared.families(matching: "dejavu")
    #expect(dv.contains("DejaVu Sans"))
    #expect(dv.allSatisfy { $0.lowercased().contains("dejavu") })
    #expect(dv.count < all.count && dv == dv.sorted())
    #expect(FontCatalog.shared.families(matching: "no-such-font-xyz").isEmpty)
}

private func signature(_ t: LaidOutText) -> [String] {
    t.glyphs.map { "\($0.face) \($0.glyphID) \($0.transform)" }
}

@Test func sameInputsGiveSameFacesAndPositionsAcrossCatalogs() throws {
    let s = "京都の旅 · Kyoto Day 1 🌸 한국어 שלום"
    let style = TextStyle(font: "DejaVu Sans", size: 40, maxWidth: 300)
    let a = try TextLayout.layout(s, style: style, catalog: FontCatalog())
    let b = try TextLayout.layout(s, style: style, catalog: FontCatalog())
    #expect(signature(a) == signature(b))
    #expect(a.clusters.map(\.face) == b.clusters.map(\.face))
}

@Test func parallelLayoutsMatchTheSerialOne() throws {
    let s = "京都の旅 · Kyoto Day 1 🌸 fi AV שלום"
    let style = TextStyle(font: "DejaVu Sans", size: 36, maxWidth: 250)
    let catalog = FontCatalog()
    let expected = signature(try TextLayout.layout(s, style: style, catalog: FontCatalog()))
    let results = ResultBox(count: 16)
    DispatchQueue.concurrentPerform(iterations: 16) { i in
        let t = try? TextLayout.layout(s, style: style, catalog: catalog)
        results.set(i, t.map(signature) ?? [])
    }
    for r in results.all { #expect(r == expected) }
}

private final class ResultBox: @unchecked Sendable {
    private var items: [[String]]
    private let lock = NSLock()
    init(count: Int) { items = Array(repeating: [], count: count) }
    func set(_ i: Int, _ v: [String]) { lock.lock(); items[i] = v; lock.unlock() }
    var all: [[String]] { lock.lock(); defer { lock.unlock() }; return items }
}

@Test func missingBoldAndItalicAreSynthesised() throws {
    // DejaVu Math TeX Gyre has only a regular face: fontconfig asks for emboldening and a shear.
    let family = "DejaVu Math TeX Gyre"
    let regular = try TextLayout.layout("l", style: TextStyle(font: family, size: 100))
    let bold = try TextLayout.layout("l", style: TextStyle(font: family, weight: 700, size: 100))
    let italic = try TextLayout.layout("l", style: TextStyle(font: family, italic: true, size: 100))
    #expect(bold.clusters[0].face?.embolden == true)
    #expect(italic.clusters[0].face?.shear ?? 0 > 0.1)
    let rw = try #require(regular.glyphs.first).bounds.width
    #expect(try #require(bold.glyphs.first).bounds.width > rw + 3, "bold stem is thicker")
    // Sheared right: the top of the l leans to the right of the regular one.
    let ri = try #require(regular.glyphs.first?.path).controlBounds, ii = try #require(italic.glyphs.first?.path).controlBounds
    #expect(ii.maxX > ri.maxX + 5)
}
