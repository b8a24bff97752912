import Testing
import TechoGeometry
@testable import TechoText

@Test func smoke() throws {
    let t = try TextLayout.layout("京都の旅 · Kyoto Day 1 🌸 AV fi שלום", style: TextStyle(font: TestFonts.dejaVuSans, size: 32))
    print(t.width, t.height, t.warnings)
    for c in t.clusters { print(c.text, c.face?.description ?? "-", c.rect) }
    print(t.glyphs.count, t.glyphs.filter(\.isImage).count)
}
