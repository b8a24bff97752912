// The render in progress: the page pixmap, the page-to-device scale, the warnings so far, and
// bounding-box layers for elements that must be isolated before they are composited.

import TechoModel
import TechoRaster

/// The page being drawn.
struct Canvas {
    let page: Page
    /// Device pixels per page pixel.
    let scale: Double
    var pixmap: Pixmap
    var warnings: [String] = []

    init(page: Page, scale: Double, pixmap: Pixmap) {
        self.page = page
        self.scale = scale
        self.pixmap = pixmap
    }

    /// Page space to device space.
    var device: Transform { .scale(scale) }

    /// The whole pixmap as a device rectangle.
    var bounds: IntRect { IntRect(x0: 0, y0: 0, x1: pixmap.width, y1: pixmap.height) }

    /// An element's transform to device space: `S(scale) ∘ element.transform`.
    func toDevice(_ e: Element) -> Transform { e.transform.concatenating(device) }

    /// A transparent layer covering `pageRect` (page space, already including everything the
    /// element draws), padded by a pixel for anti-aliasing and clipped to the page; nil when
    /// nothing of it is on the page.
    /// `pad` lets the layer reach that many pixels beyond the page, for effects (a die-cut
    /// border) that look at neighbours.
    func layer(coveringDevice rect: Rect, pad: Int = 0) -> Layer? {
        guard rect.isFinite, !rect.isEmpty else { return nil }
        let box = IntRect(x0: Int(max(-1e9, (rect.minX - 1).rounded(.down))), y0: Int(max(-1e9, (rect.minY - 1).rounded(.down))),
                          x1: Int(min(1e9, (rect.maxX + 1).rounded(.up))), y1: Int(min(1e9, (rect.maxY + 1).rounded(.up))))
            .intersection(IntRect(x0: -pad, y0: -pad, x1: pixmap.width + pad, y1: pixmap.height + pad))
        guard !box.isEmpty else { return nil }
        return Layer(x0: box.x0, y0: box.y0, pixmap: Pixmap(width: box.width, height: box.height))
    }

    /// Composites a layer once with `opacity` and `blendMode`, through an optional device clip.
    mutating func composite(_ layer: Layer, opacity: Double, blendMode: BlendMode = .sourceOver, clip: Mask? = nil) {
        pixmap.draw(layer.pixmap, transform: .translation(Double(layer.x0), Double(layer.y0)), opacity: opacity,
                    blendMode: blendMode, filter: .nearest, clip: clip)
    }

    /// The element's slot clip (page-space rotated rectangle) as a device mask, or nil.
    func slotClip(_ e: Element) -> Mask? {
        guard let frame = e.clip else { return nil }
        let c = frame.rect.center
        let t = Transform.translation(-c.x, -c.y).concatenating(.rotation(degrees: frame.rotation))
            .concatenating(.translation(c.x, c.y)).concatenating(device)
        return Mask(filling: .rect(frame.rect), transform: t, width: pixmap.width, height: pixmap.height)
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
