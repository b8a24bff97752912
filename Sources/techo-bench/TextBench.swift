// Text figures: glyphs per second for a 500-character CJK paragraph at 32 px wrapped at 700 px,
// laid out only, and laid out + drawn into a page-sized pixmap.
import Foundation
import TechoGeometry
import TechoRaster
import TechoText

/// A deterministic 500-character Japanese paragraph with punctuation.
func cjkParagraph(_ count: Int = 500) -> String {
    let source = Array("京都の旅は楽しい。朝早く清水寺へ行き、坂道を歩いて八坂神社まで散歩した。抹茶のパフェを食べてから、鴨川沿いでゆっくり休んだ。「また来たい」と思った一日だった！")
    return String((0..<count).map { source[$0 % source.count] })
}

func textBench() {
    let text = cjkParagraph()
    let style = TextStyle(font: "Noto Sans CJK JP", size: 32, maxWidth: 700)
    // Warm the font caches once, as a page export does after its first text.
    guard let first = try? TextLayout.layout(text, style: style) else { print("text: layout failed"); return }
    let glyphs = first.glyphs.count

    func time(_ rounds: Int, _ body: () -> Void) -> Double {
        let start = Date()
        for _ in 0..<rounds { body() }
        return Date().timeIntervalSince(start) / Double(rounds)
    }
    let layout = time(40) { _ = try? TextLayout.layout(text, style: style) }
    print(
        String(
            format: "text layout: %d glyphs, %d lines, %.2f ms per paragraph, %.0f glyphs/s",
            glyphs, first.lines.count, layout * 1000, Double(glyphs) / layout))

    let w = Int(first.width.rounded(.up)) + 20, h = Int(first.height.rounded(.up)) + 20
    var page = Pixmap(width: w, height: h)
    let place = Transform.translation(Double(w) / 2, Double(h) / 2)
    let both = time(10) {
        guard let t = try? TextLayout.layout(text, style: style) else { return }
        t.draw(into: &page, transform: place)
    }
    print(
        String(
            format: "text layout + draw (%dx%d): %.2f ms per paragraph, %.0f glyphs/s",
            w, h, both * 1000, Double(glyphs) / both))
    let rotated = Transform.rotation(degrees: 15).concatenating(place)
    let turned = time(10) { first.draw(into: &page, transform: rotated, opacity: 0.8) }
    print(
        String(
            format: "text draw rotated 15° at opacity 0.8: %.2f ms per paragraph, %.0f glyphs/s",
            turned * 1000, Double(glyphs) / turned))
}
