// Seeded random pages for the page-file tests: every element kind, ink strokes of the plain
// shape the fast reader and writer handle and of every other shape, numbers of every spelling
// the writer produces (integers, short decimals, 17-digit doubles, tiny values written with an
// exponent, negative zero), and text with every character the string writer escapes.

import Foundation

@testable import TechoModel

struct RandomPages {
    var rng: SeededRNG

    init(seed: UInt64) { rng = SeededRNG(seed: seed) }

    mutating func chance(_ p: Double) -> Bool { rng.unit() < p }
    mutating func int(_ r: ClosedRange<Int>) -> Int { rng.int(in: r) }

    /// A number within ±`bound` in one of the shapes pages hold.
    mutating func number(_ bound: Double = 3000) -> Double {
        let v: Double
        switch int(0...7) {
        case 0: v = Double(int(-Int(bound)...Int(bound)))
        case 1: v = (rng.uniform(-bound...bound) * 100).rounded() / 100
        case 2: v = (rng.uniform(-bound...bound) * 1000).rounded() / 1000
        case 3: v = rng.uniform(-bound...bound)  // 16 or 17 digits
        case 4: v = rng.uniform(-1...1) * 1e-5  // written with an exponent
        case 5: v = (rng.uniform(0...1) * 1e4).rounded() / 1e8  // near 0.0001
        case 6: v = -0.0
        default: v = Double(int(0...20)) / 8
        }
        return Swift.max(-bound, Swift.min(bound, v))
    }

    mutating func unit() -> Double {
        switch int(0...3) {
        case 0: return 0
        case 1: return 1
        case 2: return (rng.unit() * 1000).rounded() / 1000
        default: return rng.unit()
        }
    }

    mutating func color() -> RGBA {
        switch int(0...3) {
        case 0: return .black
        case 1: return .white
        default:
            return RGBA(r: UInt8(int(0...255)), g: UInt8(int(0...255)), b: UInt8(int(0...255)), a: chance(0.3) ? UInt8(int(0...254)) : 255)
        }
    }

    /// Text with characters the writer escapes and multi-byte ones.
    mutating func text() -> String {
        let pieces = ["note", " ", "京都", "\"", "\\", "\n", "\t", "\u{1}", "\u{1f}", "\u{2028}", "\u{2029}", "é", "e\u{301}", "/", "⌘", "🙂", "\u{7f}"]
        return (0..<int(1...12)).map { _ in pieces[int(0...(pieces.count - 1))] }.joined()
    }

    mutating func placement() throws -> Placement {
        try Placement(
            center: Point(number(), number()), scale: chance(0.3) ? 1 : Swift.max(1e-4, Swift.abs(number(50))),
            rotation: chance(0.3) ? 0 : number(179), flipH: chance(0.2), flipV: chance(0.2))
    }

    mutating func stroke() throws -> Stroke {
        let tool = Stroke.Tool.allCases[int(0...(Stroke.Tool.allCases.count - 1))]
        let width = Swift.max(0.001, Swift.abs(number(80)))
        let plain = chance(0.7)
        var points: [StrokePoint] = []
        if tool.usesPoints {
            let pressure = chance(0.6)
            for _ in 0..<int(1...12) {
                points.append(StrokePoint(number(), number(), pressure: pressure ? unit() : nil))
            }
        }
        return try Stroke(
            tool: tool, color: color(), width: width, opacity: chance(0.7) ? 1 : unit(), points: points,
            from: tool.usesEnds ? Point(number(), number()) : nil, to: tool.usesEnds ? Point(number(), number()) : nil,
            d: tool == .path ? (chance(0.5) ? "M0 0 L10 10 Z" : "M \(int(0...9)) 1 C 2 3 4 5 6 7 \(text().filter { $0.isASCII && $0 != "\\" })") : nil,
            fill: !plain && chance(0.5) ? color() : nil, fillRule: !plain && chance(0.3) ? .evenOdd : .nonZero,
            cap: !plain && chance(0.3) ? .butt : .round, join: !plain && chance(0.3) ? .bevel : .round,
            miterLimit: !plain && chance(0.3) ? 4 : 10, dash: !plain && chance(0.3) ? [Swift.abs(number(20)) + 1, 2] : nil,
            dashOffset: !plain && chance(0.3) ? number(10) : 0)
    }

    mutating func element(_ id: String, asset: AssetRef) throws -> Element {
        let opacity = chance(0.7) ? 1 : unit()
        let hidden = chance(0.15)
        let clip = chance(0.15) ? try SlotFrame(rect: Rect(x: number(), y: number(), width: 10, height: 20), rotation: chance(0.5) ? 0 : 15) : nil
        let kind = int(0...5)
        switch kind {
        case 0, 1:
            var strokes: [Stroke] = []
            for _ in 0..<int(0...20) { strokes.append(try stroke()) }
            return try Element(id: id, content: .ink(InkContent(strokes: strokes)), opacity: opacity, hidden: hidden, clip: chance(0.3) ? clip : nil)
        case 2:
            let outline = chance(0.3) ? try Outline(width: Swift.abs(number(20)) + 0.5, color: color()) : nil
            let image = try ImageContent(asset: asset, naturalWidth: Double(int(1...4000)), naturalHeight: Double(int(1...3000)), outline: outline)
            return try Element(id: id, content: .image(image), placement: placement(), opacity: opacity, hidden: hidden, clip: clip)
        case 3:
            var photo = PhotoContent(image: try ImageContent(asset: asset, naturalWidth: 400, naturalHeight: 300))
            photo.frame = chance(0.5) ? .polaroid : .none
            photo.sepia = chance(0.5) ? unit() : 0
            photo.warmth = chance(0.5) ? (unit() * 2 - 1) : 0
            photo.crop = chance(0.5) ? Rect(x: 10, y: 10, width: 200, height: 100) : nil
            return try Element(id: id, content: .photo(photo), placement: placement(), opacity: opacity, hidden: hidden, clip: clip)
        case 4:
            var t = TextContent(text: text())
            t.size = Swift.max(1, Swift.abs(number(1999)))
            t.font = chance(0.5) ? "sans-serif" : "Noto Sans CJK SC"
            t.color = color()
            t.maxWidth = chance(0.3) ? Swift.abs(number(900)) + 1 : nil
            t.align = chance(0.3) ? .center : .left
            return try Element(id: id, content: .text(t), placement: placement(), opacity: opacity, hidden: hidden)
        default:
            let from = Point(number(), number())
            var to = Point(number(), number())
            if to == from { to = Point(from.x + 1, from.y) }
            let washi = try WashiContent(
                from: from, to: to, width: Swift.abs(number(200)) + 1,
                fill: chance(0.5) ? .color(color()) : .pattern(asset), ends: chance(0.5) ? .torn : .zigzag)
            return try Element(id: id, content: .washi(washi), placement: placement(), opacity: opacity, hidden: hidden)
        }
    }

    mutating func page(id: String = "p1", elements n: Int? = nil) throws -> Page {
        let asset = try AssetRef(sha256: String(repeating: "ab", count: 32), ext: "png")
        let count = n ?? int(0...8)
        var elements: [Element] = []
        for i in 0..<count { elements.append(try element("e-\(i)", asset: asset)) }
        let auto = chance(0.2)
        let background: Background
        switch int(0...2) {
        case 0: background = Background(color: nil)
        case 1: background = Background(color: color(), paper: try Paper(pattern: .grid, spacing: Swift.abs(number(200)) + 1, color: color()))
        default: background = Background(color: color(), image: try BackgroundImage(asset: asset, mode: .cover, opacity: unit()))
        }
        let slots = chance(0.3) ? [try Slot(name: "photo-a", kind: .photo, frame: SlotFrame(rect: Rect(x: 10, y: 20, width: 300, height: 200)))] : []
        return try Page(
            id: id, size: PageSize(width: Double(int(100...3000)), height: auto ? nil : Double(int(100...3000))),
            dpi: chance(0.5) ? 300 : Double(int(72...600)), background: background, margin: auto && chance(0.5) ? 40 : 0, slots: slots,
            elements: elements)
    }

    /// A page like a journal page of handwriting: `stickers` images and one ink layer of
    /// `strokes` plain pencil strokes.
    mutating func crowdedPage(stickers: Int, strokes: Int, asset: AssetRef) throws -> Page {
        var elements: [Element] = []
        for i in 0..<stickers {
            elements.append(
                try Element(
                    id: "image-\(i + 1)", content: .image(ImageContent(asset: asset, naturalWidth: 96, naturalHeight: 96)),
                    placement: Placement(
                        center: Point(rng.uniform(0...1700), rng.uniform(0...2400)), scale: rng.uniform(0.5...1.5), rotation: rng.uniform(-179...179))))
        }
        var ink: [Stroke] = []
        for _ in 0..<strokes {
            let points = (0..<int(2...8)).map { _ in
                StrokePoint(
                    (rng.uniform(0...1700) * 100).rounded() / 100, (rng.uniform(0...2400) * 100).rounded() / 100, pressure: (rng.unit() * 1000).rounded() / 1000
                )
            }
            ink.append(try Stroke(tool: .pencil, color: color(), width: Double(int(2...6)), points: points))
        }
        elements.insert(try Element(id: "ink-1", content: .ink(InkContent(strokes: ink))), at: stickers / 2)
        return try Page(id: "p1", elements: elements)
    }
}
