// The reference page of the performance work, made deterministically (SplitMix64 from a fixed
// seed): A5 at 300 dpi; background colour, kraft paper tiled at 35% and a dot grid; four
// 4032x3024 phone photos (photo2 stored sideways with EXIF orientation 6), 700 px wide in
// polaroid frames, turned a few degrees; twelve 512x512 stickers scaled 0.3-0.8 and rotated; six
// text blocks in Noto Sans CJK (a 96 px title, three 32 px mixed Chinese/English paragraphs
// wrapped at 700 px, two rotated labels); one ink layer of 150 smooth pencil strokes of 40
// points (widths 2-10), 15 lines and dashes, 6 rectangles, 6 ellipses and 5 eraser strokes of
// width 30.
//
// The same page is written twice: as a techo manifest (for `techo build` and `techo export`) and
// as an equivalent SVG (same images by file reference, same text, same paths) for rsvg-convert.
import Foundation
import TechoGeometry
import TechoText

/// A number with at most two decimals, as JSON and SVG both read it.
func num(_ v: Double) -> String {
    let r = (v * 100).rounded() / 100
    return r == r.rounded() ? String(Int(r)) : String(format: "%.2f", r)
}

func jsonString(_ s: String) -> String {
    var out = "\""
    for c in s.unicodeScalars {
        switch c {
        case "\"": out += "\\\""
        case "\\": out += "\\\\"
        case "\n": out += "\\n"
        default: out.unicodeScalars.append(c)
        }
    }
    return out + "\""
}

private func xmlText(_ s: String) -> String {
    s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
}

/// SVG path data of a path.
private func svgPathData(_ p: Path) -> String {
    var d: [String] = []
    for e in p.elements {
        switch e {
        case .move(let a): d.append("M\(num(a.x)) \(num(a.y))")
        case .line(let a): d.append("L\(num(a.x)) \(num(a.y))")
        case .quad(let c, let a): d.append("Q\(num(c.x)) \(num(c.y)) \(num(a.x)) \(num(a.y))")
        case .cubic(let c1, let c2, let a): d.append("C\(num(c1.x)) \(num(c1.y)) \(num(c2.x)) \(num(c2.y)) \(num(a.x)) \(num(a.y))")
        case .close: d.append("Z")
        }
    }
    return d.joined(separator: " ")
}

struct ReferencePage {
    static let width = 1748.0, height = 2480.0
    static let font = "Noto Sans CJK SC"
    static let background = "#f4ecdc", paperColor = "#c9b9a0"

    struct Photo { var file: String; var natural: (Double, Double); var at: Point; var rotate: Double }
    struct Sticker { var file: String; var at: Point; var scale: Double; var rotate: Double }
    struct TextBlock { var text: String; var size: Double; var color: String; var at: Point; var rotate: Double; var maxWidth: Double?; var align: String }
    struct InkStroke {
        var tool: String; var color: String; var width: Double
        var points: [Point] = []
        var from = Point.zero, to = Point.zero
        var fill: String? = nil
    }

    var photos: [Photo] = []
    var stickers: [Sticker] = []
    var texts: [TextBlock] = []
    var strokes: [InkStroke] = []

    /// The page whose photos have a real phone's grain (`grain/`, 3-4 MB JPEGs) and whose SVG
    /// draws the erasers as strokes of the paper's colour over the ink instead of a mask (as
    /// fast a form as rsvg-convert has; it also covers whatever lies under the ink there, so
    /// the two renders differ inside the five eraser strokes).
    let realGrain: Bool

    init(realGrain: Bool = false) {
        self.realGrain = realGrain
        var rng = SplitMix64(seed: 20_260_401)
        let spots = [Point(470, 700), Point(1290, 760), Point(470, 1640), Point(1300, 1700)]
        for i in 0..<4 {
            photos.append(
                Photo(
                    file: (realGrain ? "grain" : "photos") + "/photo\(i + 1).jpg", natural: i == 1 ? (3024, 4032) : (4032, 3024),
                    at: spots[i], rotate: [-6, 4, 3, -5][i]))
        }
        for i in 0..<12 {
            stickers.append(
                Sticker(
                    file: "stickers/sticker\(String(format: "%02d", i + 1)).png",
                    at: Point(rng.uniform(120...1628), rng.uniform(300...2360)),
                    scale: 0.3 + 0.5 * Double(i) / 11, rotate: rng.uniform(-35...35)))
        }
        texts.append(
            TextBlock(
                text: "京都の旅 · Kyoto, spring 2026", size: 96, color: "#5b3a29", at: Point(874, 170),
                rotate: 0, maxWidth: nil, align: "center"))
        let paragraphs = [
            "今天早上我们去了清水寺, the view over the city was amazing. 樱花开得正好, and we walked down Sannenzaka to 八坂神社 before lunch.",
            "下午在鸭川边散步, watching the herons and the students on bikes. 我们买了抹茶冰淇淋, and sat by the river until the sun went down.",
            "晚上去了先斗町吃饭: grilled fish, tofu and a small glass of sake. 明天的计划 is Arashiyama, the bamboo forest and the monkey park.",
        ]
        for (i, p) in paragraphs.enumerated() {
            texts.append(
                TextBlock(
                    text: p, size: 32, color: "#3d3027", at: Point([480, 1290, 880][i], [1180, 1240, 2200][i]),
                    rotate: 0, maxWidth: 700, align: "left"))
        }
        texts.append(TextBlock(text: "伏見稲荷 · Fushimi Inari", size: 44, color: "#9c4a2f", at: Point(1340, 2380), rotate: -8, maxWidth: nil, align: "center"))
        texts.append(TextBlock(text: "抹茶 matcha ♡", size: 40, color: "#4f6b3a", at: Point(300, 2000), rotate: 7, maxWidth: nil, align: "center"))

        let palette = ["#e07a5f", "#3d405b", "#81b29a", "#f2cc8f", "#5b3a29", "#6d597a", "#2a9d8f", "#e76f51"]
        func color() -> String { palette[Int(rng.unit() * Double(palette.count)) % palette.count] }
        for _ in 0..<150 {
            var pts: [Point] = []
            var x = rng.uniform(100...1648), y = rng.uniform(100...2380)
            var angle = rng.unit() * 2 * Double.pi
            for _ in 0..<40 {
                pts.append(Point((x * 100).rounded() / 100, (y * 100).rounded() / 100))
                angle += (rng.unit() - 0.5) * 0.8
                x += cos(angle) * 12; y += sin(angle) * 12
            }
            strokes.append(InkStroke(tool: "pencil", color: color(), width: (rng.uniform(2...10) * 10).rounded() / 10, points: pts))
        }
        for i in 0..<15 {
            let from = Point(rng.uniform(80...1668).rounded(), rng.uniform(80...2400).rounded())
            let to = Point(from.x + rng.uniform(-500...500).rounded(), from.y + rng.uniform(-80...80).rounded())
            strokes.append(InkStroke(tool: i % 2 == 0 ? "line" : "dash", color: color(), width: (rng.uniform(2...6)).rounded(), from: from, to: to))
        }
        for tool in ["rect", "ellipse"] {
            for i in 0..<6 {
                let from = Point(rng.uniform(80...1500).rounded(), rng.uniform(80...2250).rounded())
                let to = Point(from.x + rng.uniform(60...240).rounded(), from.y + rng.uniform(40...200).rounded())
                strokes.append(
                    InkStroke(
                        tool: tool, color: color(), width: 4, from: from, to: to,
                        fill: i % 2 == 0 ? "#f2cc8f80" : nil))
            }
        }
        for _ in 0..<5 {
            var pts: [Point] = []
            var x = rng.uniform(200...1548), y = rng.uniform(200...2280)
            for _ in 0..<12 { pts.append(Point(x.rounded(), y.rounded())); x += rng.uniform(10...30); y += rng.uniform(-15...15) }
            strokes.append(InkStroke(tool: "eraser", color: "#000000", width: 30, points: pts))
        }
    }

    /// The page's elements as manifest JSON objects; `nudge` moves the first sticker right by
    /// that many page pixels (a rebuild with one element moved).
    private func elementsJSON(nudge: Double = 0) -> [String] {
        var out: [String] = []
        var stickers = self.stickers
        stickers[0].at.x += nudge
        for p in photos {
            out.append(
                "{\"type\":\"photo\",\"src\":\(jsonString(p.file)),\"at\":[\(num(p.at.x)),\(num(p.at.y))],\"width\":700,\"rotate\":\(num(p.rotate)),\"frame\":\"polaroid\"}"
            )
        }
        for s in stickers {
            out.append(
                "{\"type\":\"image\",\"src\":\(jsonString(s.file)),\"at\":[\(num(s.at.x)),\(num(s.at.y))],\"scale\":\(num(s.scale)),\"rotate\":\(num(s.rotate))}"
            )
        }
        for t in texts {
            var o =
                "{\"type\":\"text\",\"text\":\(jsonString(t.text)),\"font\":\(jsonString(ReferencePage.font)),\"size\":\(num(t.size)),\"color\":\"\(t.color)\",\"at\":[\(num(t.at.x)),\(num(t.at.y))],\"align\":\"\(t.align)\""
            if let w = t.maxWidth { o += ",\"maxWidth\":\(num(w))" }
            if t.rotate != 0 { o += ",\"rotate\":\(num(t.rotate))" }
            out.append(o + "}")
        }
        var ink: [String] = []
        for s in strokes {
            var o = "{\"tool\":\"\(s.tool)\",\"width\":\(num(s.width))"
            if s.tool != "eraser" { o += ",\"color\":\"\(s.color)\"" }
            if s.points.isEmpty {
                o += ",\"from\":[\(num(s.from.x)),\(num(s.from.y))],\"to\":[\(num(s.to.x)),\(num(s.to.y))]"
            } else {
                o += ",\"points\":[" + s.points.map { "[\(num($0.x)),\(num($0.y))]" }.joined(separator: ",") + "]"
            }
            if let f = s.fill { o += ",\"fill\":\"\(f)\"" }
            ink.append(o + "}")
        }
        out.append("{\"type\":\"ink\",\"strokes\":[\n  " + ink.joined(separator: ",\n  ") + "]}")
        return out
    }

    /// A manifest of `pages` copies of the page (ids p01, p02, …), image paths relative to its folder.
    func manifest(pages: Int, nudge: Double = 0) -> String {
        let elements = elementsJSON(nudge: nudge).joined(separator: ",\n ")
        let pageList = (1...pages).map { "{\"id\":\"p\(String(format: "%02d", $0))\",\"elements\":[\n \(elements)]}" }
        return """
            {"techo": 1, "title": "Reference page",
             "page": {"size": "A5", "dpi": 300,
                      "background": {"color": "\(ReferencePage.background)", "image": "paper/kraft.png", "mode": "tile", "opacity": 0.35,
                                     "paper": {"pattern": "dots", "color": "\(ReferencePage.paperColor)"}}},
             "pages": [
            \(pageList.joined(separator: ",\n"))]}

            """
    }

    /// The same page as SVG 1.1 for rsvg-convert; image paths relative to the SVG's folder.
    func svg() throws -> String {
        var s =
            "<svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\" width=\"1748\" height=\"2480\" viewBox=\"0 0 1748 2480\">\n"
        // Dots: the renderer's rule (5 mm spacing, centred; radius 4% of the spacing).
        let step = 5 / 25.4 * 300
        func first(_ length: Double) -> Double { (length - (length / step).rounded(.down) * step) / 2 }
        s += "<defs>\n"
        s +=
            "<pattern id=\"kraft\" patternUnits=\"userSpaceOnUse\" width=\"256\" height=\"256\"><image xlink:href=\"paper/kraft.png\" width=\"256\" height=\"256\"/></pattern>\n"
        s +=
            "<pattern id=\"dots\" patternUnits=\"userSpaceOnUse\" x=\"\(num(first(ReferencePage.width) - step / 2))\" y=\"\(num(first(ReferencePage.height) - step / 2))\" width=\"\(num(step))\" height=\"\(num(step))\"><circle cx=\"\(num(step / 2))\" cy=\"\(num(step / 2))\" r=\"\(num(step * 0.04))\" fill=\"\(ReferencePage.paperColor)\"/></pattern>\n"
        // The erasers clear the ink layer: a luminance mask, white everywhere but their strokes
        // (on the real-grain page, strokes of the paper's colour drawn after the ink instead).
        if !realGrain {
            s +=
                "<mask id=\"erase\" maskUnits=\"userSpaceOnUse\" x=\"0\" y=\"0\" width=\"1748\" height=\"2480\"><rect width=\"1748\" height=\"2480\" fill=\"#fff\"/>\n"
            for e in strokes where e.tool == "eraser" {
                s +=
                    "<path d=\"\(svgPathData(Pencil.smoothPath(through: e.points)))\" fill=\"none\" stroke=\"#000\" stroke-width=\"\(num(e.width))\" stroke-linecap=\"round\" stroke-linejoin=\"round\"/>\n"
            }
            s += "</mask>\n"
        }
        for (i, p) in photos.enumerated() {
            let (w, h) = p.natural
            s += "<clipPath id=\"pic\(i)\"><rect x=\"\(num(-w / 2))\" y=\"\(num(-h / 2))\" width=\"\(num(w))\" height=\"\(num(h))\"/></clipPath>\n"
        }
        s += "</defs>\n"
        s += "<rect width=\"1748\" height=\"2480\" fill=\"\(ReferencePage.background)\"/>\n"
        s += "<rect width=\"1748\" height=\"2480\" fill=\"url(#kraft)\" opacity=\"0.35\"/>\n"
        s += "<rect width=\"1748\" height=\"2480\" fill=\"url(#dots)\"/>\n"
        for (i, p) in photos.enumerated() {
            // Polaroid geometry as the renderer draws it (sides 6.5%, chin 27% of the short side).
            let (w, h) = p.natural
            let unit = min(w, h), side = (unit * 0.065).rounded(), chin = (unit * 0.27).rounded()
            s += "<g transform=\"translate(\(num(p.at.x)) \(num(p.at.y))) rotate(\(num(p.rotate))) scale(\(700 / w))\">"
            s +=
                "<rect x=\"\(num(-w / 2 - side))\" y=\"\(num(-h / 2 - side))\" width=\"\(num(w + 2 * side))\" height=\"\(num(h + side + chin))\" fill=\"#faf7f0\"/>"
            s +=
                "<image xlink:href=\"\(p.file)\" x=\"\(num(-w / 2))\" y=\"\(num(-h / 2))\" width=\"\(num(w))\" height=\"\(num(h))\" preserveAspectRatio=\"none\" clip-path=\"url(#pic\(i))\"/>"
            s +=
                "<rect x=\"\(num(-w / 2))\" y=\"\(num(-h / 2))\" width=\"\(num(w))\" height=\"\(num(h))\" fill=\"none\" stroke=\"#4d4033\" stroke-opacity=\"0.18\" stroke-width=\"\(num(0.6 * w / 700))\"/></g>\n"
        }
        for st in stickers {
            s +=
                "<image xlink:href=\"\(st.file)\" x=\"-256\" y=\"-256\" width=\"512\" height=\"512\" transform=\"translate(\(num(st.at.x)) \(num(st.at.y))) rotate(\(num(st.rotate))) scale(\(num(st.scale)))\"/>\n"
        }
        for t in texts {
            // Lines as techo's text engine breaks them, each placed at its laid-out baseline.
            let laid = try TextLayout.layout(t.text, style: TextStyle(font: ReferencePage.font, size: t.size, maxWidth: t.maxWidth))
            let chars = Array(t.text)
            s +=
                "<g transform=\"translate(\(num(t.at.x)) \(num(t.at.y))) rotate(\(num(t.rotate)))\" font-family=\"\(ReferencePage.font)\" font-size=\"\(num(t.size))\" fill=\"\(t.color)\">"
            for line in laid.lines {
                let text = String(chars[line.sourceRange]).trimmingCharacters(in: .whitespaces)
                s += "<text x=\"\(num(line.rect.minX))\" y=\"\(num(line.baseline))\">\(xmlText(text))</text>"
            }
            s += "</g>\n"
        }
        s += "<g\(realGrain ? "" : " mask=\"url(#erase)\"") stroke-linecap=\"round\" stroke-linejoin=\"round\">\n"
        for e in strokes where e.tool != "eraser" {
            let stroke = "stroke=\"\(e.color)\" stroke-width=\"\(num(e.width))\""
            let fill = e.fill.map { "fill=\"\($0.prefix(7))\" fill-opacity=\"0.5\"" } ?? "fill=\"none\""
            let (x0, y0, x1, y1) = (min(e.from.x, e.to.x), min(e.from.y, e.to.y), max(e.from.x, e.to.x), max(e.from.y, e.to.y))
            switch e.tool {
            case "pencil": s += "<path d=\"\(svgPathData(Pencil.smoothPath(through: e.points)))\" fill=\"none\" \(stroke)/>\n"
            case "line": s += "<line x1=\"\(num(e.from.x))\" y1=\"\(num(e.from.y))\" x2=\"\(num(e.to.x))\" y2=\"\(num(e.to.y))\" \(stroke)/>\n"
            case "dash":
                s +=
                    "<line x1=\"\(num(e.from.x))\" y1=\"\(num(e.from.y))\" x2=\"\(num(e.to.x))\" y2=\"\(num(e.to.y))\" \(stroke) stroke-dasharray=\"\(num(3 * e.width)) \(num(3 * e.width))\"/>\n"
            case "rect": s += "<rect x=\"\(num(x0))\" y=\"\(num(y0))\" width=\"\(num(x1 - x0))\" height=\"\(num(y1 - y0))\" \(fill) \(stroke)/>\n"
            default:
                s +=
                    "<ellipse cx=\"\(num((x0 + x1) / 2))\" cy=\"\(num((y0 + y1) / 2))\" rx=\"\(num((x1 - x0) / 2))\" ry=\"\(num((y1 - y0) / 2))\" \(fill) \(stroke)/>\n"
            }
        }
        s += "</g>\n"
        if realGrain {
            for e in strokes where e.tool == "eraser" {
                s +=
                    "<path d=\"\(svgPathData(Pencil.smoothPath(through: e.points)))\" fill=\"none\" stroke=\"\(ReferencePage.background)\" stroke-width=\"\(num(e.width))\" stroke-linecap=\"round\" stroke-linejoin=\"round\"/>\n"
            }
        }
        s += "</svg>\n"
        return s
    }
}
