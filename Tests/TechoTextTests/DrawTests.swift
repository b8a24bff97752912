// Drawing: every cluster of the fallback line has ink, emoji keep their colour, rotated glyph
// edges are anti-aliased and one pixel sharp, the outline sits under the fill, opacity is
// applied once. Set TECHO_TEXT_PNG=<folder> to keep the renders for a look.
import Foundation
import TechoGeometry
import TechoRaster
import TechoTestSupport
import Testing

@testable import TechoText

private func keep(_ p: Pixmap, _ name: String) {
    guard let dir = ProcessInfo.processInfo.environment["TECHO_TEXT_PNG"] else { return }
    try? DiagnosticPNG.encode(p).write(to: URL(fileURLWithPath: dir).appendingPathComponent(name + ".png"))
}

private typealias Px = (r: UInt8, g: UInt8, b: UInt8, a: UInt8)

private func pixels(_ p: Pixmap, in r: Rect) -> [Px] {
    var out: [Px] = []
    let x0 = max(0, Int(r.minX.rounded(.down))), x1 = min(p.width, Int(r.maxX.rounded(.up)))
    let y0 = max(0, Int(r.minY.rounded(.down))), y1 = min(p.height, Int(r.maxY.rounded(.up)))
    guard x0 < x1, y0 < y1 else { return out }
    for y in y0..<y1 { for x in x0..<x1 { out.append(p.pixel(x, y)) } }
    return out
}

private func chroma(_ p: Px) -> Int { Int(max(p.r, p.g, p.b)) - Int(min(p.r, p.g, p.b)) }

@Test func everyClusterOfTheKyotoLineHasInkAndOnlyTheEmojiHasColour() throws {
    let t = try TextLayout.layout("京都の旅 · Kyoto Day 1 🌸", style: TextStyle(font: TestFonts.dejaVuSans, size: 40))
    let w = Int(t.width.rounded(.up)) + 16, h = Int(t.height.rounded(.up)) + 16
    var p = Pixmap(width: w, height: h)
    let place = Transform.translation(Double(w) / 2, Double(h) / 2)
    t.draw(into: &p, transform: place)
    p.checkInvariants()
    keep(p, "kyoto-fallback")
    for c in t.clusters where c.text != " " {
        let px = pixels(p, in: c.rect.applying(place))
        let ink = px.filter { $0.a > 128 }.count
        #expect(ink > 15, "cluster \(c.text) has \(ink) inked pixels")
        let coloured = px.filter { $0.a > 64 && chroma($0) > 40 }.count
        if c.text == "🌸" {
            #expect(coloured > 100, "the emoji is drawn in colour (\(coloured) coloured pixels)")
        } else {
            #expect(coloured == 0, "\(c.text) is drawn in the text colour")
        }
    }
}

/// A change detector: `kyoto_line.png` was recorded from techo's own output, so it says the
/// line still draws as it did, not that it draws right; what it draws is checked independently
/// by the tests above (glyph coverage per cluster, colour only on the emoji) and against
/// hb-view's widths (`References/widths`).
@Test func kyotoLineIsUnchangedSinceRecorded() throws {
    let t = try TextLayout.layout(
        "京都の旅 · Kyoto Day 1 🌸",
        style: TextStyle(
            font: TestFonts.dejaVuSans, size: 24,
            color: Color(r8: 0x5b, g8: 0x3a, b8: 0x29)))
    var p = Pixmap(width: 300, height: 40)
    p.fill(r: 246, g: 240, b: 228, a: 255)
    t.draw(into: &p, transform: .translation(150, 20))
    let check = checkReference(
        p, reference: Fixtures.url("References/text/kyoto_line.png"), name: "kyoto_line",
        tolerance: 1)
    #expect(check.passed, "\(check.message)")
}

/// Samples alpha across the left edge of the stem of an "I" drawn rotated: with vector
/// outlines the edge ramps from empty to full within about one pixel, at any angle.
@Test(arguments: [30.0, 45.0, 73.0])
func rotatedGlyphEdgeIsAntiAliasedAndSharp(degrees: Double) throws {
    let t = try TextLayout.layout("I", style: TextStyle(font: TestFonts.dejaVuSans, size: 120))
    let glyph = try #require(t.glyphs.first?.path).controlBounds
    let place = Transform.rotation(degrees: degrees).concatenating(.translation(100, 100))
    var p = Pixmap(width: 200, height: 200)
    t.draw(into: &p, transform: place)
    keep(p, "rotated-I-\(Int(degrees))")
    let inv = try #require(place.inverted())
    var outside = [UInt8](), inside = [UInt8](), onEdge = [UInt8]()
    for y in 0..<p.height {
        for x in 0..<p.width {
            let e = inv.apply(Point(Double(x) + 0.5, Double(y) + 0.5))
            guard abs(e.y - glyph.midY) < glyph.height / 4 else { continue }
            let d = e.x - glyph.minX  // signed distance of the pixel centre from the stem's left edge
            let a = p.pixel(x, y).a
            if d < -1 && d > -6 { outside.append(a) }
            if d > 1 && d < 6 { inside.append(a) }
            if abs(d) < 0.35 { onEdge.append(a) }
        }
    }
    #expect(outside.count > 20 && inside.count > 20 && onEdge.count > 5)
    #expect(outside.allSatisfy { $0 == 0 }, "ink beyond 1 px outside the edge: \(outside.max() ?? 0)")
    #expect(inside.allSatisfy { $0 == 255 }, "not full 1 px inside the edge: \(inside.min() ?? 0)")
    // Pixels the edge crosses are partly covered: anti-aliased, not a staircase.
    #expect(onEdge.allSatisfy { $0 > 20 && $0 < 235 }, "edge pixels \(onEdge)")
}

@Test func outlineIsAStrokeUnderTheFill() throws {
    let red = Color(r: 1, g: 0, b: 0)
    let style = TextStyle(font: TestFonts.dejaVuSans, size: 120, outline: TextOutline(color: red, width: 4))
    let t = try TextLayout.layout("I", style: style)
    let stem = try #require(t.glyphs.first?.path).controlBounds
    var p = Pixmap(width: 160, height: 160)
    t.draw(into: &p, transform: .translation(80, 80))
    keep(p, "outline-I")
    func at(_ dx: Double) -> Px { p.pixel(Int((80 + stem.minX + dx).rounded(.down)), Int((80 + stem.midY).rounded(.down))) }
    #expect(at(-2.5) == (255, 0, 0, 255), "outline just outside the glyph")
    #expect(at(3) == (0, 0, 0, 255), "fill drawn over the outline inside the glyph")
    #expect(at(-7).a == 0, "nothing beyond the outline's width")
}

@Test func opacityIsAppliedOnceToFillAndOutlineTogether() throws {
    let style = TextStyle(
        font: TestFonts.dejaVuSans, size: 120,
        outline: TextOutline(color: Color(r: 0, g: 0, b: 1), width: 4))
    let t = try TextLayout.layout("I", style: style)
    var p = Pixmap(width: 160, height: 160)
    t.draw(into: &p, transform: .translation(80, 80), opacity: 0.5)
    p.checkInvariants()
    keep(p, "opacity-I")
    let maxA = p.data.enumerated().filter { $0.offset % 4 == 3 }.map(\.element).max() ?? 0
    // Drawn without a layer, fill over outline would reach 1 − 0.5² = 0.75.
    #expect(abs(Int(maxA) - 128) <= 1, "max alpha \(maxA)")
    let stem = try #require(t.glyphs.first?.path).controlBounds
    let inside = p.pixel(Int(80 + stem.midX), Int(80 + stem.midY))
    #expect(inside.b == 0 && inside.a >= 127, "fill covers the outline inside the glyph: \(inside)")
}

@Test func smallEmojiIsSmoothNotAliased() throws {
    // A 136 px bitmap drawn at 16 px: averaged, so neighbouring pixels change gently.
    let t = try TextLayout.layout("🌸", style: TextStyle(font: TestFonts.dejaVuSans, size: 16))
    var p = Pixmap(width: 32, height: 32)
    t.draw(into: &p, transform: .translation(16, 16))
    p.checkInvariants()
    keep(p, "emoji-16")
    let opaque = p.data.enumerated().filter { $0.offset % 4 == 3 && $0.element > 200 }.count
    #expect(opaque > 60, "about a 16 px blossom: \(opaque) opaque pixels")
    #expect(opaque < 400)
}

@Test func hugeTextIntoASmallPixmapOnlyTouchesThePixmap() throws {
    // A 2000 px glyph seen through a 64 px window: the layer is clamped to the pixmap.
    let t = try TextLayout.layout("\u{2588}", style: TextStyle(font: TestFonts.dejaVuSans, size: 2000))  // full block
    var p = Pixmap(width: 64, height: 64)
    t.draw(into: &p, transform: .translation(32, 32), opacity: 0.5)
    p.checkInvariants()
    #expect(p.pixel(32, 32) == (0, 0, 0, 128), "the block covers the window at half opacity")
    // A singular transform draws nothing.
    var q = Pixmap(width: 64, height: 64)
    t.draw(into: &q, transform: .scale(0))
    #expect(q.data.allSatisfy { $0 == 0 })
}
