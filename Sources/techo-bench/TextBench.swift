// Text figures: glyphs per second for a 500-character CJK paragraph at 32 px wrapped at 700 px.
import Foundation
import TechoText

/// A deterministic 500-character Japanese/Chinese paragraph with punctuation.
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
    let rounds = 40
    let start = Date()
    for _ in 0..<rounds { _ = try? TextLayout.layout(text, style: style) }
    let secs = Date().timeIntervalSince(start)
    let perSec = Double(glyphs * rounds) / secs
    print(String(format: "text layout: %d glyphs, %d lines, %.2f ms per paragraph, %.0f glyphs/s",
                 glyphs, first.lines.count, secs / Double(rounds) * 1000, perSec))
}
