// Washi tape: a strip along from → to in element space, printed with a colour or a repeating
// pattern, multiplied onto the page like translucent paper tape. Its long edges waver a little
// and its ends are torn (a ragged line) or cut with pinking shears (zigzag); the shapes come from
// a SplitMix64 generator seeded with an FNV-1a hash of the element id, so every strip differs
// from the next but renders the same every time.

import TechoModel
import TechoRaster

extension SplitMix64 {
    /// Seeded from the FNV-1a 64-bit hash of `text`.
    init(hashing text: String) {
        var h: UInt64 = 0xCBF2_9CE4_8422_2325
        for b in text.utf8 { h = (h ^ UInt64(b)) &* 0x0000_0100_0000_01B3 }
        self.init(seed: h)
    }
}

/// The outline of a strip of tape in its own frame: x along the strip from 0 to `length`, y
/// across it from −width/2 to width/2.
struct WashiShape {
    let length: Double, width: Double
    let outline: [Point]

    init(length: Double, width: Double, ends: WashiContent.Ends, seed: String) {
        self.length = length
        self.width = width
        var rng = SplitMix64(hashing: seed)
        let h = width / 2
        // End profiles: x offsets (inward from each end) at evenly spaced points across the width.
        func endProfile() -> [Point] {
            switch ends {
            case .torn:
                // Fibres tear unevenly: a random walk with small steps, at most ~9% of the width deep.
                let n = max(6, Int(width / 3).clamped(to: 6...40))
                var x = rng.uniform(0...0.05) * width
                var pts: [Point] = []
                for i in 0...n {
                    x = (x + rng.uniform(-0.035...0.035) * width).clamped(to: 0...(0.09 * width))
                    pts.append(Point(x, -h + width * Double(i) / Double(n)))
                }
                return pts
            case .zigzag:
                // Pinking shears: even teeth; their count and phase vary per strip.
                let teeth = Int(rng.uniform(5...8).rounded())
                let depth = width * rng.uniform(0.06...0.08)
                let phase = rng.next() & 1 == 0
                var pts: [Point] = []
                for i in 0...(2 * teeth) {
                    let tip = (i % 2 == 0) == phase
                    pts.append(Point(tip ? 0 : depth, -h + width * Double(i) / Double(2 * teeth)))
                }
                return pts
            }
        }
        let start = endProfile(), end = endProfile()
        // Long edges: a gentle waver, about half a percent of the width.
        func edge(_ y: Double) -> [Point] {
            let n = max(2, Int(length / max(4, width / 3)))
            return (1..<n).map { i in Point(length * Double(i) / Double(n), y + rng.uniform(-0.006...0.006) * width) }
        }
        var pts: [Point] = []
        // Top edge left to right, end (top to bottom), bottom edge right to left, start (bottom to top).
        let top = edge(-h), bottom = edge(h)
        pts.append(Point(start[0].x, -h))
        pts.append(contentsOf: top)
        pts.append(contentsOf: end.map { Point(length - $0.x, $0.y) })
        pts.append(contentsOf: bottom.reversed())
        pts.append(contentsOf: start.reversed().map { Point($0.x, $0.y) })
        outline = pts
    }

    var path: Path { .polyline(outline, closed: true) }
}

extension Comparable {
    func clamped(to r: ClosedRange<Self>) -> Self { min(max(self, r.lowerBound), r.upperBound) }
}

extension WashiContent {
    /// The strip's own frame (x along, y across) to element space.
    var frame: Transform {
        let d = to - from
        let len = d.length
        let u = d / len
        return Transform(a: u.x, b: u.y, c: -u.y, d: u.x, tx: from.x, ty: from.y)
    }
    var length: Double { (to - from).length }
}

extension PageRenderer {
    func drawWashi(_ w: WashiContent, element e: Element, canvas: Canvas, into out: inout ElementDrawing) throws {
        let shape = WashiShape(length: w.length, width: w.width, ends: w.ends, seed: e.id)
        let t = w.frame.concatenating(canvas.toDevice(e))
        guard var layer = canvas.layer(coveringDevice: shape.path.bounds.applying(t)) else { return }
        let local = layer.local(t)
        switch w.fill {
        case .color(let c):
            layer.pixmap.fill(shape.path, paint: Paint(c), transform: local)
        case .pattern(let asset):
            // The pattern runs along the strip, scaled so one repeat spans the tape's width,
            // translucent like printed paper tape.
            let (iw, ih) = try images.naturalSize(asset)
            let k = w.width / ih
            let device = k * t.maxScale
            let img = try images.image(asset, natural: (iw, ih), needed: (iw * device, ih * device))
            // One repeat resampled once to whole device pixels, copied end to end into a strip
            // (no seams between repeats), drawn once through the strip's transform.
            let tw = max(1, Int((iw * device).rounded())), th = max(1, Int((ih * device).rounded()))
            var tile = Pixmap(width: tw, height: th)
            tile.draw(img, transform: .scale(Double(tw) / Double(img.width), Double(th) / Double(img.height)), filter: .good)
            let repeats = max(1, Int((w.length / (iw * k)).rounded(.up)))
            guard repeats <= PageRenderer.maxSide, tw * repeats <= 4 * PageRenderer.maxSide else {
                throw RenderError(pageID: canvas.page.id, elementID: e.id, message: "washi pattern repeats too often")
            }
            var strip = Pixmap(width: tw * repeats, height: th)
            for r in 0..<repeats { strip.draw(tile, transform: .translation(Double(r * tw), 0), blendMode: .source) }
            let clip = Mask(filling: shape.path, transform: local, width: layer.pixmap.width, height: layer.pixmap.height)
            let toStrip = Transform.scale(iw * k / Double(tw), w.width / Double(th)).concatenating(.translation(0, -w.width / 2))
            layer.pixmap.draw(strip, transform: toStrip.concatenating(local), opacity: 0.85, filter: .good, clip: clip)
        }
        out.composite(layer, opacity: e.opacity, blendMode: .multiply)
    }
}
