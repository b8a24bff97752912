// The geometry of a render in progress (the page, its device size and scale), bounding-box
// layers for elements that must be isolated before they are composited, and what one element
// puts on the page: its marks, made apart from the page pixels (on any core) and applied to
// the page in stacking order.

import TechoModel
import TechoRaster

/// The page being drawn: where things go, not the pixels (those are only touched in order, by
/// `ElementDrawing.apply`).
struct Canvas {
    let page: Page
    /// Device pixels per page pixel.
    let scale: Double
    /// The device size of the pixels drawn: the whole page, or the region asked for.
    let width: Int, height: Int
    /// The whole page's device size (equal to `width`, `height` unless a region is drawn).
    let pageWidth: Int, pageHeight: Int
    /// The page's device pixel at the pixmap's top-left corner ((0, 0) unless a region is drawn).
    let originX: Int, originY: Int

    init(page: Page, scale: Double, width: Int, height: Int) {
        self.init(page: page, scale: scale, pageWidth: width, pageHeight: height, region: IntRect(x0: 0, y0: 0, x1: width, y1: height))
    }

    /// A canvas drawing only `region` (device pixels of the whole page at `scale`): the same
    /// pixels as that rectangle of the whole render.
    init(page: Page, scale: Double, pageWidth: Int, pageHeight: Int, region: IntRect) {
        self.page = page
        self.scale = scale
        self.width = region.width
        self.height = region.height
        self.pageWidth = pageWidth
        self.pageHeight = pageHeight
        self.originX = region.x0
        self.originY = region.y0
    }

    /// Page space to device space (the drawn pixmap's pixels).
    var device: Transform {
        originX == 0 && originY == 0 ? .scale(scale) : .scale(scale).concatenating(.translation(Double(-originX), Double(-originY)))
    }

    /// The whole page as a device rectangle.
    var bounds: IntRect { IntRect(x0: 0, y0: 0, x1: width, y1: height) }

    /// An element's transform to device space: `S(scale) ∘ element.transform`.
    func toDevice(_ e: Element) -> Transform { e.transform.concatenating(device) }

    /// A transparent layer covering `pageRect` (page space, already including everything the
    /// element draws), padded by a pixel for anti-aliasing and clipped to the page; nil when
    /// nothing of it is on the page.
    /// `pad` lets the layer reach that many pixels beyond the page, for effects (a die-cut
    /// border) that look at neighbours.
    func layer(coveringDevice rect: Rect, pad: Int = 0) -> Layer? {
        guard rect.isFinite, !rect.isEmpty else { return nil }
        let box = IntRect(
            x0: Int(max(-1e9, (rect.minX - 1).rounded(.down))), y0: Int(max(-1e9, (rect.minY - 1).rounded(.down))),
            x1: Int(min(1e9, (rect.maxX + 1).rounded(.up))), y1: Int(min(1e9, (rect.maxY + 1).rounded(.up)))
        )
        .intersection(IntRect(x0: -pad, y0: -pad, x1: width + pad, y1: height + pad))
        guard !box.isEmpty else { return nil }
        return Layer(x0: box.x0, y0: box.y0, pixmap: Pixmap(width: box.width, height: box.height))
    }

    /// The element's slot clip (page-space rotated rectangle) as a device mask, or nil.
    func slotClip(_ e: Element) -> Mask? {
        guard let frame = e.clip else { return nil }
        let c = frame.rect.center
        let t = Transform.translation(-c.x, -c.y).concatenating(.rotation(degrees: frame.rotation))
            .concatenating(.translation(c.x, c.y)).concatenating(device)
        return Mask(filling: .rect(frame.rect), transform: t, width: width, height: height)
    }
}

/// A bounding-box layer: a transparent pixmap whose top-left pixel is device pixel (x0, y0).
struct Layer {
    let x0: Int, y0: Int
    var pixmap: Pixmap

    /// Device space to layer pixels.
    var fromDevice: Transform { .translation(Double(-x0), Double(-y0)) }

    /// `t` (to device space) followed by the move into the layer.
    func local(_ t: Transform) -> Transform { t.concatenating(fromDevice) }
}

/// One drawing call on the page pixels, with everything it needs already made.
enum Mark {
    /// A layer composited once with an opacity and blend mode, through an optional clip.
    case layer(Layer, opacity: Double, blendMode: BlendMode, clip: Mask?)
    /// A picture or a fill drawn straight onto the page, resolved up to the blend (coverage,
    /// clip, opacity and sampled colours made with the drawing, not when it is applied).
    case prepared(PreparedDraw)
}

/// What one element puts on the page: its marks in order and its warnings. Made from the
/// element and the canvas geometry alone, never from the page's pixels, so elements can be made
/// on any core in any order and applied in stacking order with the same result.
struct ElementDrawing {
    var marks: [Mark] = []
    var warnings: [String] = []

    /// Composites a layer once with `opacity` and `blendMode`, through an optional device clip.
    mutating func composite(_ layer: Layer, opacity: Double, blendMode: BlendMode = .sourceOver, clip: Mask? = nil) {
        marks.append(.layer(layer, opacity: opacity, blendMode: blendMode, clip: clip))
    }

    /// Bytes of pixels and masks held.
    var bytes: Int {
        marks.reduce(0) { total, m in
            switch m {
            case .layer(let l, _, _, let clip): return total + l.pixmap.data.count + (clip?.data.count ?? 0)
            case .prepared(let d): return total + d.bytes
            }
        }
    }

    /// Draws the marks onto the page.
    func apply(to pixmap: inout Pixmap) {
        for m in marks {
            switch m {
            case .layer(let l, let opacity, let blendMode, let clip):
                pixmap.draw(
                    l.pixmap, transform: .translation(Double(l.x0), Double(l.y0)), opacity: opacity,
                    blendMode: blendMode, filter: .nearest, clip: clip)
            case .prepared(let d):
                pixmap.apply(d)
            }
        }
    }
}
