// Backgrounds (docs/contract.md §5): colour, then an image in a fill mode, then ruled paper.
// Paper rulings are centred within the margin: the leftover of the area after whole spacings
// is split evenly on both sides, so dots and grid lines sit symmetrically on the page; lines
// are snapped to whole device pixels so a ruling is as crisp as the pen of a printer. On an
// endless (`auto`) side the rulings start at the margin instead: the page grows as it is
// written on, and rows centred in its height would slide under the writing at each growth. On
// that side they also run on to the page's edge (no far margin), as a roll of paper does: the
// page's foot is where it was cut from the roll, and the paper the editor shows below it joins
// it with no gap (a grid's upright lines reach the edge, the next row is drawn where it falls).

import TechoModel
import TechoRaster

extension PageRenderer {
    /// More dots than this are drawn as an even tint (a 1 px spacing on a large page would
    /// otherwise be hundreds of millions of discs).
    static let maxPaperDots = 1_000_000

    func drawBackground(_ bg: Background, canvas: Canvas, into pixmap: inout Pixmap) throws {
        // An opaque colour under a tiled image: the tile is composed over the colour once and
        // then copied, one pass over the page instead of two.
        if let c = bg.color, c.a == 255, let image = bg.image, image.mode == .tile, image.opacity > 0 {
            let (iw, ih) = try images.naturalSize(image.asset)
            try drawTiles(image, natural: (iw, ih), over: c, canvas: canvas, into: &pixmap)
        } else {
            if let c = bg.color, c.a > 0 {
                let p = Color(c).premultiplied8
                pixmap.fill(r: p.r, g: p.g, b: p.b, a: p.a)
            }
            if let image = bg.image, image.opacity > 0 { try drawBackgroundImage(image, canvas: canvas, into: &pixmap) }
        }
        if let paper = bg.paper, paper.pattern != .blank { drawPaper(paper, canvas: canvas, into: &pixmap) }
    }

    private func drawBackgroundImage(_ bg: BackgroundImage, canvas: Canvas, into pixmap: inout Pixmap) throws {
        let (iw, ih) = try images.naturalSize(bg.asset)
        let s = canvas.scale
        let (pw, ph) = (Double(canvas.pageWidth) / s, Double(canvas.pageHeight) / s)
        // The image's rectangle on the page (page pixels).
        var rect: Rect
        switch bg.mode {
        case .tile:
            try drawTiles(bg, natural: (iw, ih), over: nil, canvas: canvas, into: &pixmap)
            return
        case .cover, .contain:
            let k = bg.mode == .cover ? max(pw / iw, ph / ih) : min(pw / iw, ph / ih)
            rect = Rect(x: (pw - iw * k) / 2, y: (ph - ih * k) / 2, width: iw * k, height: ih * k)
        case .stretch:
            rect = Rect(x: 0, y: 0, width: pw, height: ph)
        case .center:
            rect = Rect(x: ((pw - iw) / 2).rounded(), y: ((ph - ih) / 2).rounded(), width: iw, height: ih)
        }
        let img = try images.image(bg.asset, natural: (iw, ih), needed: (rect.width * s, rect.height * s))
        let t = Transform.scale(rect.width / Double(img.width), rect.height / Double(img.height))
            .concatenating(.translation(rect.minX, rect.minY)).concatenating(canvas.device)
        pixmap.draw(img, transform: t, opacity: bg.opacity, filter: .good)
    }

    /// Tiles from the page origin at the image's natural size: the tile is resampled once to
    /// whole device pixels, then copied exactly, so seams never show.
    /// With `base`, the tile is composed over that opaque colour and copied.
    private func drawTiles(_ bg: BackgroundImage, natural: (Double, Double), over base: RGBA?, canvas: Canvas, into pixmap: inout Pixmap) throws {
        let s = canvas.scale
        let tw = max(1, Int((natural.0 * s).rounded())), th = max(1, Int((natural.1 * s).rounded()))
        let img = try images.image(bg.asset, natural: natural, needed: (Double(tw), Double(th)))
        var tile = img
        if img.width != tw || img.height != th {
            // Resampled as the tiled plane it is: from the picture with a border of its own
            // opposite edges, so the tile's edge pixels are filtered with the next tile's pixels
            // (with nothing beyond them, they came out part transparent: a faint line at every
            // tile's edge when the tile is not drawn at its own size).
            let sx = Double(tw) / Double(img.width), sy = Double(th) / Double(img.height)
            let m = min(max(img.width, img.height), Int((2 / min(sx, sy)).rounded(.up)) + 2)
            var wrapped = Pixmap(width: img.width + 2 * m, height: img.height + 2 * m)
            for j in -1...1 {
                for i in -1...1 {
                    wrapped.draw(img, transform: .translation(Double(m + i * img.width), Double(m + j * img.height)), blendMode: .source)
                }
            }
            tile = Pixmap(width: tw, height: th)
            tile.draw(wrapped, transform: .translation(Double(-m), Double(-m)).concatenating(.scale(sx, sy)), filter: .good)
        }
        // Tiny tiles are repeated into one of at least 256 px first, to keep the copy count low.
        let rx = max(1, (256 + tw - 1) / tw), ry = max(1, (256 + th - 1) / th)
        if rx > 1 || ry > 1 {
            var big = Pixmap(width: tw * rx, height: th * ry)
            for j in 0..<ry { for i in 0..<rx { big.draw(tile, transform: .translation(Double(i * tw), Double(j * th)), blendMode: .source) } }
            tile = big
        }
        var opacity = bg.opacity, mode = BlendMode.sourceOver
        if let base {
            let p = Color(base).premultiplied8
            var composed = Pixmap(width: tile.width, height: tile.height)
            composed.fill(r: p.r, g: p.g, b: p.b, a: p.a)
            composed.composite(tile, x: 0, y: 0, opacity: bg.opacity)
            tile = composed
            opacity = 1
            mode = .source
        }
        // Tiles start at the page's origin, wherever the drawn region begins.
        let W = canvas.width, H = canvas.height
        var y = -(canvas.originY % tile.height)
        while y < H {
            var x = -(canvas.originX % tile.width)
            while x < W {
                pixmap.draw(tile, transform: .translation(Double(x), Double(y)), opacity: opacity, blendMode: mode, filter: .nearest)
                x += tile.width
            }
            y += tile.height
        }
    }

    /// Dots, grid or lines, centred within the margin.
    func drawPaper(_ paper: Paper, canvas: Canvas, into pixmap: inout Pixmap) {
        guard let (path, paint) = paperRulings(paper, canvas: canvas) else { return }
        if canvas.originX == 0 && canvas.originY == 0 {
            pixmap.fill(path, paint: paint)
        } else {
            pixmap.fill(path, paint: paint, transform: .translation(Double(-canvas.originX), Double(-canvas.originY)))
        }
    }

    /// Where the rulings of `paper` go on `canvas` (device space, the whole page's): the
    /// positions of its columns and rows, whole spacings centred within the margin (from the
    /// margin on an endless side, so they stay put as the page grows, and on to the page's edge:
    /// every position whose ruling reaches into the page), the spacing, the area ruled (to the
    /// edge on an endless side) and which sides are endless; nil when they do not fit or are
    /// finer than a device pixel.
    private func paperGrid(_ paper: Paper, canvas: Canvas)
        -> (xs: [Double], ys: [Double], step: Double, area: Rect, endless: (x: Bool, y: Bool))?
    {
        let s = canvas.scale
        let W = Double(canvas.pageWidth), H = Double(canvas.pageHeight)
        let step = paper.spacing * s, margin = paper.margin * s
        let size = canvas.page.size
        let endless = (x: size.width == nil || size.endlessWidth, y: size.height == nil || size.endlessHeight)
        let area = Rect(x: margin, y: margin, width: W - (endless.x ? 1 : 2) * margin, height: H - (endless.y ? 1 : 2) * margin)
        guard area.width > 0, area.height > 0, step >= 1 else { return nil }
        // How far a ruling reaches from its position: half a hairline, or a dot's radius.
        let reach = paper.pattern == .dots ? Self.dotRadius(step: step) : Self.hairline(step: step) / 2
        func positions(_ start: Double, _ length: Double, endless: Bool) -> [Double] {
            if endless {
                // From the margin while the ruling still reaches into the page.
                let n = Int(((length + reach) / step).rounded(.up)) - 1
                return (0...max(0, n)).map { start + Double($0) * step }
            }
            let n = Int((length / step).rounded(.down))
            let first = start + (length - Double(n) * step) / 2
            return (0...n).map { first + Double($0) * step }
        }
        return (positions(area.minX, area.width, endless: endless.x), positions(area.minY, area.height, endless: endless.y), step, area, endless)
    }

    /// The width of ruled lines `step` device pixels apart: about 0.15 mm at 5 mm spacing, whole
    /// device pixels, at least one.
    private static func hairline(step: Double) -> Double { max(1, (step * 0.022).rounded()) }

    /// The radius of dotted paper's dots at `step` device pixels apart: about 0.4 mm dots at
    /// 5 mm spacing, never below a device pixel across.
    private static func dotRadius(step: Double) -> Double { max(0.6, step * 0.04) }

    /// The dots of dotted `paper` on `canvas`, in device space as `paperRulings` draws them:
    /// centres row by row, radius and colour; nil when the paper is not dotted or has so many
    /// dots that it is drawn as an even tint.
    func paperDots(_ paper: Paper, canvas: Canvas) -> (centres: [Point], radius: Double, color: Color)? {
        guard paper.pattern == .dots, let (xs, ys, step, _, _) = paperGrid(paper, canvas: canvas), xs.count * ys.count <= PageRenderer.maxPaperDots
        else { return nil }
        return (ys.flatMap { y in xs.map { Point($0, y) } }, Self.dotRadius(step: step), Color(paper.color))
    }

    /// The rulings of `paper` on `canvas` as one device-space path (nonzero) and its paint, or
    /// nil when there are none. Lines are snapped to the canvas's device pixels. The path is in
    /// the whole page's device space (a region's origin is not taken off).
    func paperRulings(_ paper: Paper, canvas: Canvas) -> (Path, Paint)? {
        guard let (xs, ys, step, area, endless) = paperGrid(paper, canvas: canvas) else { return nil }
        let paint = Paint(paper.color)
        var path = Path()
        switch paper.pattern {
        case .blank:
            return nil
        case .dots:
            let r = Self.dotRadius(step: step)
            if xs.count * ys.count > PageRenderer.maxPaperDots {
                // Finer than the eye can tell apart: an even tint of the same average darkness.
                let tint = min(1, Double.pi * r * r / (step * step))
                return (.rect(area), Paint(paper.color, opacity: tint))
            }
            for c in paperDots(paper, canvas: canvas)?.centres ?? [] { path.append(.circle(center: c, radius: r)) }
        case .grid, .lines:
            // Hairlines, on pixel edges.
            let t = Self.hairline(step: step)
            func snap(_ v: Double) -> Double { (v - t / 2).rounded() }
            // Lines run across the whole area; a grid closes on its outermost rulings, but on an
            // endless side it runs on to the page's edge, where the paper goes on. One nonzero
            // fill covers crossings once, so they are not darker.
            let left = paper.pattern == .grid ? snap(xs[0]) : area.minX.rounded()
            let right = paper.pattern == .grid && !endless.x ? snap(xs[xs.count - 1]) + t : area.maxX.rounded()
            for y in ys { path.append(.rect(Rect(x: left, y: snap(y), width: right - left, height: t))) }
            if paper.pattern == .grid {
                let top = snap(ys[0]), bottom = endless.y ? area.maxY.rounded() : snap(ys[ys.count - 1]) + t
                for x in xs { path.append(.rect(Rect(x: snap(x), y: top, width: t, height: bottom - top))) }
            }
        }
        return (path, paint)
    }
}
