// The page as vector items (VectorItem.swift): the same walk as `compose`, over the same
// geometry. Ink strokes become the stroker's and the pencil's outlines as filled paths, shapes
// their fills and outlines; photos and picture stickers are their decoded pixels at their own
// resolution (never the page's), cropped and rounded by clip paths; SVG stickers stay SVG;
// paper rulings are the raster's paths at the export resolution; tape is its outline, filled
// with its colour or its pattern; a die-cut border is one colour through a soft mask. What has
// no vector form is the raster renderer's own drawing of it at the export resolution, cut to its
// extent.

import Foundation
import TechoCodecs
import TechoGeometry
import TechoModel
import TechoRaster
import TechoText

extension PageRenderer {
    /// Curves and pen outlines are flattened to this many page pixels: 1/50 of a 72 dpi pixel
    /// is finer than any printer's dot at the page sizes techo makes.
    static let vectorTolerance = 0.02

    /// `page` as vector items, with what has no vector form rendered at `rasterScale` × its
    /// pixel size (the export resolution), and the background reaching `bleed` page pixels
    /// past every edge.
    ///
    /// - Throws: as `render(_:scale:)`.
    public func vectorPage(_ page: Page, rasterScale: Double, bleed: Double = 0) throws -> VectorPage {
        precondition(rasterScale.isFinite && rasterScale > 0, "raster scale must be positive and finite, got \(rasterScale)")
        precondition(bleed.isFinite && bleed >= 0, "bleed must be finite and not negative, got \(bleed)")
        let size = try resolvedSize(of: page)
        let (w, h) = try deviceSize(page: page, size: size, scale: rasterScale)
        let canvas = Canvas(page: page, scale: rasterScale, width: w, height: h)
        var items: [VectorItem] = []
        do { items += try vectorBackground(page.background, size: size, bleed: bleed, canvas: canvas) } catch let e as RenderError { throw e } catch {
            throw RenderError(pageID: page.id, message: "background: \(error)")
        }
        var warnings: [String] = []
        for e in page.elements where !e.hidden && e.opacity > 0 {
            do {
                var drawn = try vectorItems(of: e, canvas: canvas, warnings: &warnings)
                if let clip = slotPath(e) { drawn = [.group(drawn, opacity: 1, blendMode: .sourceOver, clip: clip)] }
                items += drawn
            } catch let e as RenderError {
                throw e
            } catch {
                throw RenderError(pageID: page.id, elementID: e.id, message: "\(error)")
            }
        }
        return VectorPage(width: size.width, height: size.height, dpi: page.dpi, bleed: bleed, items: items, warnings: warnings)
    }

    private func vectorItems(of e: Element, canvas: Canvas, warnings: inout [String]) throws -> [VectorItem] {
        switch e.content {
        case .image(let image):
            guard let outline = image.outline else { return try vectorImage(image, element: e, opacity: e.opacity) }
            return try vectorDieCut(image, outline: outline, element: e, canvas: canvas)
        case .washi(let washi):
            // An SVG pattern has no pixels of its own to repeat: drawn at the export resolution.
            if case .pattern(let asset) = washi.fill, images.isVector(asset) { return try rasterised(e, canvas: canvas, warnings: &warnings) }
            return try vectorWashi(washi, element: e)
        case .photo(let photo):
            return try vectorPhoto(photo, element: e, canvas: canvas)
        case .ink(let ink):
            return try vectorInk(ink, element: e, canvas: canvas)
        case .text(let text):
            return try vectorText(text, element: e, canvas: canvas, warnings: &warnings)
        }
    }

    /// The element drawn by the raster renderer at the canvas's scale, for what has no vector
    /// form (tape printed with an SVG pattern): each of its layers a picture over the layer's extent, composited with the layer's
    /// opacity and blend mode (tape multiplies); its direct draws one picture cut to the
    /// element's extent.
    func rasterised(_ e: Element, canvas: Canvas, warnings: inout [String]) throws -> [VectorItem] {
        let d = try drawing(of: e, canvas: canvas, keep: false)
        warnings += d.warnings
        var items: [VectorItem] = []
        var direct: Pixmap?
        for m in d.marks {
            switch m {
            case .layer(let l, let opacity, let blendMode, let clip):
                let picture = VectorItem.picture(
                    VectorPicture(key: nil, pixmap: clip.map { l.pixmap.masked(by: $0, x0: l.x0, y0: l.y0) } ?? l.pixmap),
                    transform: fromDevice(canvas, x: l.x0, y: l.y0), opacity: blendMode == .sourceOver ? opacity : 1)
                items.append(blendMode == .sourceOver ? picture : .group([picture], opacity: opacity, blendMode: blendMode, clip: nil))
            case .prepared(let draw):
                if direct == nil { direct = Pixmap(width: canvas.width, height: canvas.height) }
                direct?.apply(draw)
            }
        }
        guard let direct else { return items }
        let r = try pageBounds(of: e).applying(canvas.device)
        guard r.isFinite, !r.isEmpty else { return items }
        let box = IntRect(
            x0: Int(max(-1e9, (r.minX - 2).rounded(.down))), y0: Int(max(-1e9, (r.minY - 2).rounded(.down))),
            x1: Int(min(1e9, (r.maxX + 2).rounded(.up))), y1: Int(min(1e9, (r.maxY + 2).rounded(.up)))
        ).intersection(canvas.bounds)
        guard !box.isEmpty else { return items }
        let cut = direct.cropped(x0: box.x0, y0: box.y0, x1: box.x1, y1: box.y1)
        // Direct draws come before layers only if the element made them first; the renderer's
        // elements make either kind, never both.
        return [.picture(VectorPicture(key: nil, pixmap: cut), transform: fromDevice(canvas, x: box.x0, y: box.y0), opacity: 1)] + items
    }

    /// Device pixel (x, y) of the canvas as the origin of a picture in page space.
    private func fromDevice(_ canvas: Canvas, x: Int, y: Int) -> Transform {
        Transform.translation(Double(x), Double(y)).concatenating(.scale(1 / canvas.scale))
    }

    /// The element's slot clip in page space, or nil.
    private func slotPath(_ e: Element) -> Path? {
        guard let frame = e.clip else { return nil }
        let c = frame.rect.center
        let t = Transform.translation(-c.x, -c.y).concatenating(.rotation(degrees: frame.rotation)).concatenating(.translation(c.x, c.y))
        return Path.rect(frame.rect).applying(t)
    }

    // MARK: Pictures

    /// The asset decoded at its natural size, with the file's bytes when they can be embedded
    /// as they are: a JPEG at its full resolution, upright or turned by its EXIF orientation
    /// (then the picture carries the turn for the backend to apply as the image's matrix).
    func naturalPicture(_ asset: AssetRef) throws -> VectorPicture {
        let (nw, nh) = try images.naturalSize(asset)
        let img = try images.image(asset, natural: (nw, nh), needed: (nw, nh))
        let info = try images.info(asset)
        guard info.format == .jpeg, img.width == info.naturalWidth, img.height == info.naturalHeight else {
            return VectorPicture(key: asset.path, pixmap: img)
        }
        let url: URL
        do { url = try images.assetURL(asset) } catch { throw AssetFailure(asset: asset, message: "\(error)") }
        let bytes: [UInt8]
        do { bytes = try FileBytes.contents(of: url.path, name: asset.path, maxBytes: ImageLimits.default.maxFileBytes) } catch let e as ImageError {
            throw images.failure(asset, e)
        }
        guard JPEGPassThrough.isEmbeddable(bytes) else { return VectorPicture(key: asset.path, pixmap: img) }
        let turn = info.orientation.storedToDisplayed(width: Double(info.width), height: Double(info.height))
        return VectorPicture(key: asset.path, pixmap: img, jpeg: bytes, stored: turn)
    }

    /// A photo's picture at its own resolution: the file's JPEG bytes when they pass through,
    /// else (a HEIF or AVIF photo, a rotated JPEG) its pixels as a JPEG of its own.
    private func photoPicture(_ asset: AssetRef) throws -> VectorPicture {
        let p = try naturalPicture(asset)
        guard p.jpeg == nil, try images.info(asset).format != .png else { return p }
        return try encodedPhoto(p.pixmap, key: asset.path)
    }

    /// Photographic pixels as a JPEG at quality 92 (the export's own default), so a picture that
    /// came from a lossy file does not grow into a lossless one. Pixels with alpha stay as they are.
    private func encodedPhoto(_ pixmap: Pixmap, key: String) throws -> VectorPicture {
        guard pixmap.isOpaque else { return VectorPicture(key: key, pixmap: pixmap) }
        return VectorPicture(key: key, pixmap: pixmap, jpeg: try JPEGEncoder.encode(pixmap, quality: 92, name: key))
    }

    private func vectorImage(_ image: ImageContent, element e: Element, opacity: Double) throws -> [VectorItem] {
        let (nw, nh) = (image.naturalWidth, image.naturalHeight)
        let toPage = Transform.translation(-nw / 2, -nh / 2).concatenating(e.transform)
        if images.isVector(image.asset) {
            let url: URL
            do { url = try images.assetURL(image.asset) } catch { throw AssetFailure(asset: image.asset, message: "\(error)") }
            let bytes: [UInt8]
            do { bytes = try FileBytes.contents(of: url.path, name: image.asset.path, maxBytes: SVGRendering.maxFileBytes) } catch let err as ImageError {
                throw images.failure(image.asset, err)
            }
            return [.svg(bytes: bytes, name: image.asset.path, width: nw, height: nh, transform: toPage, opacity: opacity)]
        }
        let p = try naturalPicture(image.asset)
        let grid = Transform.scale(nw / Double(p.pixmap.width), nh / Double(p.pixmap.height)).concatenating(toPage)
        return [.picture(p, transform: grid, opacity: opacity)]
    }

    /// A die-cut sticker as `drawImage` draws it: the border in its one colour through a soft
    /// mask of the raster's own border coverage at the export resolution (`DieCut.border`, over
    /// the same layer), the sticker over it as any sticker (its own pixels once per document,
    /// or SVG), the two composited once with the element's opacity. A picture of both would
    /// carry the sticker again at the export resolution and three channels of one colour.
    private func vectorDieCut(_ image: ImageContent, outline: Outline, element e: Element, canvas: Canvas) throws -> [VectorItem] {
        let t = canvas.toDevice(e)
        let k = t.maxScale
        let (nw, nh) = (image.naturalWidth, image.naturalHeight)
        let img = try images.image(image.asset, natural: (nw, nh), needed: (nw * k, nh * k))
        let toElement = Transform.scale(nw / Double(img.width), nh / Double(img.height)).concatenating(.translation(-nw / 2, -nh / 2))
        let border = outline.width * k
        let rect = Rect(x: -nw / 2, y: -nh / 2, width: nw, height: nh).applying(t).outset(by: border + 1)
        let sticker = try vectorImage(image, element: e, opacity: 1)
        guard var layer = canvas.layer(coveringDevice: rect, pad: min(256, Int(border.rounded(.up)) + 2)) else {
            return e.opacity < 1 ? [.group(sticker, opacity: e.opacity, blendMode: .sourceOver, clip: nil)] : sticker
        }
        layer.pixmap.draw(img, transform: layer.local(toElement.concatenating(t)), filter: .good)
        let lw = layer.pixmap.width, lh = layer.pixmap.height
        let cover = DieCut.border(layer.pixmap, width: border)
        var alpha = [UInt8](repeating: 0, count: lw * lh * 4)
        for i in 0..<(lw * lh) { alpha[4 * i + 3] = cover[i] }
        let place = fromDevice(canvas, x: layer.x0, y: layer.y0)
        let area = Path.rect(Rect(x: 0, y: 0, width: Double(lw), height: Double(lh))).applying(place)
        let mask = VectorPicture(key: nil, pixmap: Pixmap(width: lw, height: lh, premultiplied: alpha))
        let ring = VectorItem.masked([.fill(area, color: Color(outline.color), rule: .nonZero)], mask: mask, transform: place)
        return [.group([ring] + sticker, opacity: e.opacity, blendMode: .sourceOver, clip: nil)]
    }

    /// Washi tape as `drawWashi` draws it, as vectors: the strip's outline filled with its
    /// colour, or clipped to the outline its pattern (the picture at its own resolution,
    /// repeated along the strip, one repeat across its width, at 85 %), multiplied onto the
    /// page with the element's opacity.
    private func vectorWashi(_ w: WashiContent, element e: Element) throws -> [VectorItem] {
        let shape = WashiShape(length: w.length, width: w.width, ends: w.ends, seed: e.id)
        let t = w.frame.concatenating(e.transform)
        let outline = shape.path.applying(t)
        let strip: VectorItem
        switch w.fill {
        case .color(let c):
            strip = .fill(outline, color: Color(c), rule: .nonZero)
        case .pattern(let asset):
            let (iw, ih) = try images.naturalSize(asset)
            let k = w.width / ih
            let p = try naturalPicture(asset)
            let grid = Transform.scale(iw * k / Double(p.pixmap.width), ih * k / Double(p.pixmap.height))
                .concatenating(.translation(0, -w.width / 2)).concatenating(t)
            strip = .group([.tiles(p, transform: grid, opacity: 0.85)], opacity: 1, blendMode: .sourceOver, clip: outline)
        }
        return [.group([strip], opacity: e.opacity, blendMode: .multiply, clip: nil)]
    }

    private func vectorPhoto(_ photo: PhotoContent, element e: Element, canvas: Canvas) throws -> [VectorItem] {
        let g = PhotoGeometry(photo)
        let t = e.transform
        let (nw, nh) = (photo.image.naturalWidth, photo.image.naturalHeight)
        let adjustments = PhotoAdjustments(photo)
        let p: VectorPicture
        let pictureToElement: Transform
        if adjustments.isIdentity {
            p = try photoPicture(photo.image.asset)
            pictureToElement = Transform.scale(nw / Double(p.pixmap.width), nh / Double(p.pixmap.height))
                .concatenating(.translation(g.picture.minX - g.crop.minX, g.picture.minY - g.crop.minY))
        } else {
            // Changed pixels have no file to pass through: the raster's own adjusted crop, at
            // the export resolution, as a JPEG of its own.
            let k = canvas.toDevice(e).maxScale
            let img = try images.image(photo.image.asset, natural: (nw, nh), needed: (nw * k, nh * k))
            let sx = Double(img.width) / nw, sy = Double(img.height) / nh
            let px0 = max(0, Int((g.crop.minX * sx).rounded(.down))), py0 = max(0, Int((g.crop.minY * sy).rounded(.down)))
            let px1 = min(img.width, max(px0 + 1, Int((g.crop.maxX * sx).rounded(.up))))
            let py1 = min(img.height, max(py0 + 1, Int((g.crop.maxY * sy).rounded(.up))))
            let size = [img.width, img.height, px0, py0, px1, py1]
            let key = DerivedPicture(asset: photo.image.asset, size: size, steps: adjustments.steps)
            let adjusted = images.derived(key) { adjustments.applied(to: img.cropped(x0: px0, y0: py0, x1: px1, y1: py1)) }
            // The decoder only reduces by powers of two, so the crop can hold up to twice the
            // pixels the export resolution shows: resampled to that resolution (never up), as
            // the raster resamples it when it draws.
            let aw = adjusted.width, ah = adjusted.height
            let tw = min(aw, max(1, Int((Double(aw) / sx * k).rounded(.up)))), th = min(ah, max(1, Int((Double(ah) / sy * k).rounded(.up))))
            let shown = tw == aw && th == ah ? adjusted : adjusted.resampled(width: tw, height: th)
            p = try encodedPhoto(shown, key: "\(photo.image.asset.path)#\(size)\(adjustments.steps)@\(tw)x\(th)")
            pictureToElement = Transform.scale(Double(aw) / Double(tw), Double(ah) / Double(th))
                .concatenating(.scale(1 / sx, 1 / sy))
                .concatenating(.translation(Double(px0) / sx - g.crop.minX + g.picture.minX, Double(py0) / sy - g.crop.minY + g.picture.minY))
        }
        let picture = VectorItem.picture(p, transform: pictureToElement.concatenating(t), opacity: 1)
        if photo.frame == .none && !photo.shadow && g.pictureRadius == 0 && photo.crop == nil {
            return [.picture(p, transform: pictureToElement.concatenating(t), opacity: e.opacity)]
        }
        var items: [VectorItem] = []
        if photo.shadow, let shadow = photoShadow(g, element: e, canvas: canvas) { items.append(shadow) }
        if photo.frame != .none {
            items.append(.fill(g.silhouette.applying(t), color: Color(g.cardColor), rule: .nonZero))
        }
        let clip = Path.roundedRect(g.picture, radius: g.pictureRadius).applying(t)
        items.append(.group([picture], opacity: 1, blendMode: .sourceOver, clip: clip))
        if photo.frame == .polaroid {
            // As the raster draws it: a hairline of 0.6 device pixels at the export resolution.
            let hair = 0.6 / max(canvas.toDevice(e).maxScale, 1e-9)
            let line = Path.roundedRect(g.picture, radius: g.pictureRadius)
                .stroked(StrokeStyle(width: hair, join: .miter), transform: t, tolerance: PageRenderer.vectorTolerance)
            items.append(.fill(line, color: Color(r: 0.3, g: 0.25, b: 0.2, a: 0.18), rule: .nonZero))
        }
        return [.group(items, opacity: e.opacity, blendMode: .sourceOver, clip: nil)]
    }

    /// A photo's soft shadow over its extent: one colour through a soft mask of the blur as the
    /// raster computes it, at 1/f of the canvas's resolution (`SoftShadow.blurred`), which the
    /// raster only interpolates up and the PDF reader interpolates the same way.
    private func photoShadow(_ g: PhotoGeometry, element e: Element, canvas: Canvas) -> VectorItem? {
        let t = canvas.toDevice(e)
        let offset = g.shadowOffset * e.placement.scale * canvas.scale
        let blur = g.shadowBlur * e.placement.scale * canvas.scale
        let reach = g.card.applying(t).offsetBy(offset).outset(by: 3 * blur + 1)
        guard let layer = canvas.layer(coveringDevice: reach) else { return nil }
        let lw = layer.pixmap.width, lh = layer.pixmap.height
        let (small, f) = SoftShadow.blurred(
            g.silhouette, transform: layer.local(t).concatenating(.translation(offset, offset)), sigma: blur, width: lw, height: lh)
        // One opaque colour through the blur's coverage times the shadow's 0.42 alpha: the PDF
        // keeps only that coverage (a grey soft mask), where a picture of the shadow would carry
        // three more channels of one colour.
        let alpha = 0.42
        let sw = small.width, sh = small.height
        var coverage = [UInt8](repeating: 0, count: sw * sh * 4)
        for i in 0..<(sw * sh) { coverage[4 * i + 3] = UInt8((Double(small.data[4 * i + 3]) * alpha).rounded()) }
        let place = fromDevice(canvas, x: layer.x0, y: layer.y0)
        let area = Path.rect(Rect(x: 0, y: 0, width: Double(lw), height: Double(lh))).applying(place)
        return .masked(
            [.fill(area, color: Color(r: 0.16, g: 0.11, b: 0.07, a: 1), rule: .nonZero)],
            mask: VectorPicture(key: nil, pixmap: Pixmap(width: sw, height: sh, premultiplied: coverage)),
            transform: Transform.scale(Double(f)).concatenating(place))
    }

    // MARK: Text

    /// A text element as `drawText` draws it: the outline's stroke, the glyphs of each face as
    /// text in that font, colour emoji as pictures of the strike the raster would use; in a
    /// group when the element is translucent.
    private func vectorText(_ text: TextContent, element e: Element, canvas: Canvas, warnings: inout [String]) throws -> [VectorItem] {
        let laid = try layout(text)
        for w in laid.warnings { warnings.append("element \(e.id): \(w)") }
        guard !laid.glyphs.isEmpty else { return [] }
        let t = e.transform
        var items: [VectorItem] = []
        if let o = text.outline {
            let style = StrokeStyle(width: 2 * o.width, cap: .round, join: .round)
            items.append(.fill(laid.outlinePath.stroked(style, transform: t, tolerance: PageRenderer.vectorTolerance), color: Color(o.color), rule: .nonZero))
        }
        items += glyphRuns(laid, transform: t, color: Color(text.color)).map { .glyphs($0) }
        for g in laid.glyphs {
            guard case .image(let glyph) = g.kind else { continue }
            let full = g.transform.concatenating(t)
            let (img, factor) = glyph.image(forScale: full.maxScale * canvas.scale)
            let key = "emoji \(g.face) \(g.glyphID) \(img.width)x\(img.height)"
            items.append(.picture(VectorPicture(key: key, pixmap: img), transform: Transform.scale(factor).concatenating(full), opacity: 1))
        }
        return e.opacity < 1 ? [.group(items, opacity: e.opacity, blendMode: .sourceOver, clip: nil)] : items
    }

    /// The outline glyphs of `laid` as runs of one face and one size, each cluster's text
    /// with the glyphs that draw it. A cluster with no outline glyph but with text (an emoji,
    /// drawn as a picture) gives its text to the cluster before it, or to the next one at the
    /// start of a run, so the extracted text keeps every character in order.
    func glyphRuns(_ laid: LaidOutText, transform t: Transform, color: Color) -> [GlyphRun] {
        var byCluster = [[PlacedGlyph]](repeating: [], count: laid.clusters.count)
        for g in laid.glyphs where !g.isImage { byCluster[g.cluster].append(g) }
        struct Building {
            var face: FaceKey
            var matrix: Transform
            var glyphs: [GlyphRun.Glyph] = []
            var text = ""
            var clusters: [GlyphRun.Cluster] = []
        }
        var runs: [GlyphRun] = []
        var current: Building?
        var pending = ""
        func finish() {
            guard let b = current else { return }
            runs.append(GlyphRun(face: b.face, fontMatrix: b.matrix, glyphs: b.glyphs, text: b.text, clusters: b.clusters, color: color))
            current = nil
        }
        for (k, c) in laid.clusters.enumerated() {
            guard let first = byCluster[k].first else {
                // Spaces are left to the reader, which sees the gap (a space given to a glyph
                // as well would be read twice).
                if c.text.allSatisfy(\.isWhitespace) { continue }
                if current == nil || current?.clusters.isEmpty == true {
                    pending += c.text
                } else if var b = current, let last = b.clusters.last {
                    b.text += c.text
                    b.clusters[b.clusters.count - 1] = GlyphRun.Cluster(bytes: last.bytes + c.text.utf8.count, glyphs: last.glyphs)
                    current = b
                }
                continue
            }
            let full = first.transform.concatenating(t)
            let linear = Transform(a: full.a, b: full.b, c: full.c, d: full.d, tx: 0, ty: 0)
            if current.map({ $0.face != first.face || $0.matrix != linear }) ?? true {
                finish()
                current = Building(face: first.face, matrix: linear)
            }
            let piece = pending + c.text
            pending = ""
            current?.text += piece
            current?.clusters.append(GlyphRun.Cluster(bytes: piece.utf8.count, glyphs: byCluster[k].count))
            for g in byCluster[k] {
                let m = g.transform.concatenating(t)
                current?.glyphs.append(GlyphRun.Glyph(id: g.glyphID, origin: Point(m.tx, m.ty)))
            }
        }
        finish()
        return runs
    }

    // MARK: Background

    /// The background: its colour and picture over the page and its bleed (a picture sized to
    /// the page keeps its size, and a cover picture reaches into the bleed as far as it goes),
    /// paper rulings within the page's margin.
    private func vectorBackground(_ bg: Background, size: (width: Double, height: Double), bleed: Double, canvas: Canvas) throws -> [VectorItem] {
        var items: [VectorItem] = []
        let page = Rect(x: 0, y: 0, width: size.width, height: size.height)
        let sheet = Rect(x: -bleed, y: -bleed, width: size.width + 2 * bleed, height: size.height + 2 * bleed)
        if let c = bg.color, c.a > 0 { items.append(.fill(.rect(sheet), color: Color(c), rule: .nonZero)) }
        if let image = bg.image, image.opacity > 0 {
            let (iw, ih) = try images.naturalSize(image.asset)
            let p = try naturalPicture(image.asset)
            let grid = Transform.scale(iw / Double(p.pixmap.width), ih / Double(p.pixmap.height))
            let (pw, ph) = (size.width, size.height)
            switch image.mode {
            case .tile:
                items.append(.tiles(p, transform: grid, opacity: image.opacity))
            case .cover, .contain, .stretch, .center:
                var rect: Rect
                switch image.mode {
                case .cover, .contain:
                    let k = image.mode == .cover ? max(pw / iw, ph / ih) : min(pw / iw, ph / ih)
                    rect = Rect(x: (pw - iw * k) / 2, y: (ph - ih * k) / 2, width: iw * k, height: ih * k)
                case .stretch:
                    rect = page
                default:
                    rect = Rect(x: ((pw - iw) / 2).rounded(), y: ((ph - ih) / 2).rounded(), width: iw, height: ih)
                }
                let t = Transform.scale(rect.width / Double(p.pixmap.width), rect.height / Double(p.pixmap.height))
                    .concatenating(.translation(rect.minX, rect.minY))
                // A cover image reaches past the page: the sheet cuts it, as the page does in the raster.
                items.append(.group([.picture(p, transform: t, opacity: image.opacity)], opacity: 1, blendMode: .sourceOver, clip: .rect(sheet)))
            }
        }
        if let paper = bg.paper, let dots = paperDots(paper, canvas: canvas) {
            let k = 1 / canvas.scale
            items.append(.dots(dots.centres.map { Point($0.x * k, $0.y * k) }, radius: dots.radius * k, color: dots.color))
        } else if let paper = bg.paper, let (path, paint) = paperRulings(paper, canvas: canvas) {
            items.append(.fill(path.applying(.scale(1 / canvas.scale)), color: paint.color, rule: .nonZero))
        }
        return items
    }

    // MARK: Ink

    /// An ink layer as `drawInk` draws it: highlighters under the pen strokes (multiplied),
    /// each group composited once with the element's opacity. An eraser keeps what was drawn
    /// before it only where it did not pass: those strokes are masked by the eraser's outline,
    /// rasterised at the export resolution over the layer's extent (the strokes stay vectors).
    private func vectorInk(_ ink: InkContent, element e: Element, canvas: Canvas) throws -> [VectorItem] {
        var bounds = Rect.null
        for (i, s) in ink.strokes.enumerated() where s.tool != .eraser {
            do { bounds = bounds.union(try strokeBounds(s)) } catch { throw InkFailure("strokes[\(i)]: \(error)") }
        }
        guard !bounds.isNull, let extent = canvas.layer(coveringDevice: bounds.applying(canvas.device)) else { return [] }
        var marker: [VectorItem] = [], pen: [VectorItem] = []
        let tol = PageRenderer.vectorTolerance
        for (i, s) in ink.strokes.enumerated() {
            switch s.tool {
            case .eraser:
                let mask = eraserMask(s, over: extent, canvas: canvas)
                let place = fromDevice(canvas, x: extent.x0, y: extent.y0)
                if !pen.isEmpty { pen = [.masked(pen, mask: mask, transform: place)] }
                if !marker.isEmpty { marker = [.masked(marker, mask: mask, transform: place)] }
            case .highlighter:
                let path = s.points.count == 1 ? Path.polyline([s.points[0].point]) : Pencil.smoothPath(through: s.points.map(\.point))
                var style = StrokeStyle(s, cap: .butt)
                if s.points.count == 1 { style.cap = .square }
                marker.append(.fill(path.stroked(style, tolerance: tol), color: Color(s.color, opacity: s.opacity), rule: .nonZero))
            default:
                do { pen += try vectorStroke(s, tolerance: tol) } catch { throw InkFailure("strokes[\(i)]: \(error)") }
            }
        }
        var items: [VectorItem] = []
        if !marker.isEmpty { items.append(.group(marker, opacity: e.opacity, blendMode: .multiply, clip: nil)) }
        if !pen.isEmpty { items.append(.group(pen, opacity: e.opacity, blendMode: .sourceOver, clip: nil)) }
        return items
    }

    /// What an eraser leaves of the layer `extent` covers: opaque where it did not pass, clear
    /// under its outline (the pencil's outline, as `drawInk` clears with), with the same coverage.
    private func eraserMask(_ s: Stroke, over extent: Layer, canvas: Canvas) -> VectorPicture {
        var layer = extent
        let outline = Pencil(width: s.width).outline(
            s.points.map { PencilPoint($0.point, pressure: $0.pressure) }, tolerance: 0.05 / canvas.scale)
        layer.pixmap.fill(outline, paint: Paint(color: .black), transform: layer.local(canvas.device))
        var kept = layer.pixmap.data
        for i in stride(from: 0, to: kept.count, by: 4) {
            kept[i] = 0
            kept[i + 1] = 0
            kept[i + 2] = 0
            kept[i + 3] = 255 - kept[i + 3]
        }
        return VectorPicture(key: nil, pixmap: Pixmap(width: layer.pixmap.width, height: layer.pixmap.height, premultiplied: kept))
    }

    /// One pen stroke as filled outlines, as `drawStroke` fills them.
    func vectorStroke(_ s: Stroke, tolerance tol: Double) throws -> [VectorItem] {
        let color = Color(s.color, opacity: s.opacity)
        let style = StrokeStyle(s)
        let shape: Path
        switch try penGeometry(s, tolerance: tol) {
        case .pressureOutline(let outline): return [.fill(outline, color: color, rule: .nonZero)]
        case .shape(let p): shape = p
        case .none: return []
        }
        let outline = VectorItem.fill(shape.stroked(style, tolerance: tol), color: color, rule: .nonZero)
        guard let fill = s.fill, s.tool == .rect || s.tool == .ellipse || s.tool == .path else { return [outline] }
        if s.opacity >= 1 { return [.fill(shape, color: Color(fill), rule: s.fillRule), outline] }
        // Fill and outline grouped so the stroke's opacity applies once.
        let opaque = VectorItem.fill(shape.stroked(style, tolerance: tol), color: Color(s.color), rule: .nonZero)
        return [.group([.fill(shape, color: Color(fill), rule: s.fillRule), opaque], opacity: s.opacity, blendMode: .sourceOver, clip: nil)]
    }
}

extension Pixmap {
    /// The pixels drawn onto a `width`×`height` pixmap that they fill exactly (the raster's
    /// image drawing: box-averaged when shrinking, then bilinear).
    func resampled(width w: Int, height h: Int) -> Pixmap {
        var out = Pixmap(width: w, height: h)
        out.draw(self, transform: .scale(Double(w) / Double(width), Double(h) / Double(height)))
        return out
    }

    /// The pixels scaled by a device mask's coverage, the pixmap's top-left pixel being device
    /// pixel (x0, y0).
    func masked(by mask: Mask, x0: Int, y0: Int) -> Pixmap {
        var out = self
        for y in 0..<height {
            for x in 0..<width {
                let c = UInt32(mask.coverage(x0 + x, y0 + y))
                guard c != 255 else { continue }
                let i = (y * width + x) * 4
                for k in 0..<4 { out.data[i + k] = UInt8((UInt32(data[i + k]) * c + 127) / 255) }
            }
        }
        return out
    }
}
