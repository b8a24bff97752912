// Image stickers and photos. Pictures are decoded at the device size they are drawn at (JPEG
// DCT scaling) and drawn through the element's full transform with the area-averaging filter.
// A photo is composed in its own layer: drop shadow (the card's silhouette, blurred, offset
// down-right on the page), the card of a border or polaroid frame, then the adjusted picture
// clipped to its rounded corners; the layer is composited once with the element's opacity.

import TechoModel
import TechoRaster

/// Where the parts of a photo lie in element space (origin at the picture's centre).
struct PhotoGeometry {
    /// The part of the picture shown, natural pixels.
    let crop: Rect
    /// The picture, element space: the crop centred on the origin.
    let picture: Rect
    /// The card (the picture when unframed).
    let card: Rect
    let cardRadius: Double
    let pictureRadius: Double
    /// Card colour: a slightly warm white for polaroids, a clean white for borders.
    let cardColor: RGBA
    /// Shadow offset (down-right) and blur sigma, in element units.
    let shadowOffset: Double, shadowBlur: Double

    init(_ p: PhotoContent) {
        let nw = p.image.naturalWidth, nh = p.image.naturalHeight
        crop = p.crop ?? Rect(x: 0, y: 0, width: nw, height: nh)
        picture = Rect(x: -crop.width / 2, y: -crop.height / 2, width: crop.width, height: crop.height)
        let unit = min(crop.width, crop.height)
        var side = 0.0
        switch p.frame {
        case .none:
            card = picture
            cardColor = .white
        case .border:
            // An even white margin, like a print with a border.
            side = (unit * 0.045).rounded()
            card = picture.insetBy(-side)
            cardColor = RGBA(r: 0xFD, g: 0xFC, b: 0xF9)
        case .polaroid:
            // A Polaroid 600: 79 mm picture, about 5 mm sides and top, a 21 mm chin.
            side = (unit * 0.065).rounded()
            let chin = (unit * 0.27).rounded()
            card = Rect(minX: picture.minX - side, minY: picture.minY - side, maxX: picture.maxX + side, maxY: picture.maxY + chin)
            cardColor = RGBA(r: 0xFA, g: 0xF7, b: 0xF0)
        }
        cardRadius = min(p.radius, min(card.width, card.height) / 2)
        pictureRadius = p.frame == .none ? cardRadius : min(max(0, p.radius - side), unit / 2)
        let size = max(card.width, card.height)
        shadowOffset = size * 0.015
        shadowBlur = size * 0.022
    }

    /// Everything the photo may draw, element space (the shadow's reach is added in page space
    /// by the caller, since the shadow's offset is the page's).
    var silhouette: Path { .roundedRect(card, radius: cardRadius) }
}

extension PageRenderer {
    func drawImage(_ image: ImageContent, element e: Element, canvas: Canvas, into out: inout ElementDrawing) throws {
        let t = canvas.toDevice(e)
        let k = t.maxScale
        let (nw, nh) = (image.naturalWidth, image.naturalHeight)
        let img = try images.image(image.asset, natural: (nw, nh), needed: (nw * k, nh * k))
        let toElement = Transform.scale(nw / Double(img.width), nh / Double(img.height)).concatenating(.translation(-nw / 2, -nh / 2))
        let clip = canvas.slotClip(e)
        guard let outline = image.outline else {
            // A single draw takes the opacity directly.
            out.marks.append(
                .prepared(
                    PreparedDraw(
                        drawing: img, transform: toElement.concatenating(t), opacity: e.opacity, filter: .good,
                        clip: clip, width: canvas.width, height: canvas.height)))
            return
        }
        let border = outline.width * k
        let rect = Rect(x: -nw / 2, y: -nh / 2, width: nw, height: nh).applying(t).outset(by: border + 1)
        // The layer reaches beyond the page so the border follows edges just off the page; at
        // most 256 px, which bounds memory for absurd widths (the page is covered by then).
        guard var layer = canvas.layer(coveringDevice: rect, pad: min(256, Int(border.rounded(.up)) + 2)) else { return }
        layer.pixmap.draw(img, transform: layer.local(toElement.concatenating(t)), filter: .good)
        layer.pixmap = DieCut.outlined(layer.pixmap, width: border, color: Color(outline.color))
        out.composite(layer, opacity: e.opacity, clip: clip)
    }

    func drawPhoto(_ photo: PhotoContent, element e: Element, canvas: Canvas, into out: inout ElementDrawing) throws {
        let g = PhotoGeometry(photo)
        let t = canvas.toDevice(e)
        let k = t.maxScale
        let (nw, nh) = (photo.image.naturalWidth, photo.image.naturalHeight)
        let img = try images.image(photo.image.asset, natural: (nw, nh), needed: (nw * k, nh * k))
        // The crop in decoded pixels, widened to whole pixels; the picture clip trims the rest.
        let sx = Double(img.width) / nw, sy = Double(img.height) / nh
        let px0 = max(0, Int((g.crop.minX * sx).rounded(.down))), py0 = max(0, Int((g.crop.minY * sy).rounded(.down)))
        let px1 = min(img.width, max(px0 + 1, Int((g.crop.maxX * sx).rounded(.up))))
        let py1 = min(img.height, max(py0 + 1, Int((g.crop.maxY * sy).rounded(.up))))
        let adjustments = PhotoAdjustments(photo)
        var picture = img
        if (px0, py0, px1, py1) != (0, 0, img.width, img.height) || !adjustments.isIdentity {
            let key = DerivedPicture(asset: photo.image.asset, size: [img.width, img.height, px0, py0, px1, py1], steps: adjustments.steps)
            picture = images.derived(key) { adjustments.applied(to: img.cropped(x0: px0, y0: py0, x1: px1, y1: py1)) }
        }
        let pictureToElement = Transform.scale(1 / sx, 1 / sy)
            .concatenating(.translation(Double(px0) / sx - g.crop.minX + g.picture.minX, Double(py0) / sy - g.crop.minY + g.picture.minY))

        if photo.frame == .none && !photo.shadow && g.pictureRadius == 0 && photo.crop == nil {
            // A plain photo is one draw, like an image sticker: it takes the opacity directly.
            out.marks.append(
                .prepared(
                    PreparedDraw(
                        drawing: picture, transform: pictureToElement.concatenating(t), opacity: e.opacity,
                        filter: .good, clip: canvas.slotClip(e), width: canvas.width, height: canvas.height)))
            return
        }
        // The layer holds the card and its shadow.
        let cardDevice = g.card.applying(t)
        let shadowOffset = g.shadowOffset * e.placement.scale * canvas.scale
        let shadowBlur = g.shadowBlur * e.placement.scale * canvas.scale
        var reach = cardDevice
        if photo.shadow { reach = reach.union(cardDevice.offsetBy(shadowOffset).outset(by: 3 * shadowBlur + 1)) }
        guard var layer = canvas.layer(coveringDevice: reach) else { return }
        let local = layer.local(t)
        if photo.shadow {
            let lw = layer.pixmap.width, lh = layer.pixmap.height
            let mask = SoftShadow.mask(
                g.silhouette, transform: local.concatenating(.translation(shadowOffset, shadowOffset)),
                sigma: shadowBlur, width: lw, height: lh)
            layer.pixmap.fill(
                .rect(Rect(x: 0, y: 0, width: Double(lw), height: Double(lh))),
                paint: Paint(color: Color(r: 0.16, g: 0.11, b: 0.07, a: 0.42)), clip: mask)
        }
        if photo.frame != .none {
            layer.pixmap.fill(g.silhouette, paint: Paint(g.cardColor), transform: local)
        }
        let pictureClip = Mask(
            filling: .roundedRect(g.picture, radius: g.pictureRadius), transform: local,
            width: layer.pixmap.width, height: layer.pixmap.height)
        layer.pixmap.draw(picture, transform: pictureToElement.concatenating(local), filter: .good, clip: pictureClip)
        if photo.frame == .polaroid {
            // The picture sits a hair below the card's surface: a faint line around it.
            let hair = 0.6 / max(k, 1e-9)
            layer.pixmap.stroke(
                .roundedRect(g.picture, radius: g.pictureRadius), style: StrokeStyle(width: hair, join: .miter),
                paint: Paint(color: Color(r: 0.3, g: 0.25, b: 0.2, a: 0.18)), transform: local)
        }
        out.composite(layer, opacity: e.opacity, clip: canvas.slotClip(e))
    }
}

/// What a cropped, adjusted photo is made from: its cache key.
struct DerivedPicture: Hashable, OfAsset {
    var asset: AssetRef
    var size: [Int]
    var steps: [[Float]]
}

extension Rect {
    /// The rectangle moved by (d, d).
    func offsetBy(_ d: Double) -> Rect { Rect(x: x + d, y: y + d, width: width, height: height) }
}

extension Pixmap {
    /// The pixels of device rectangle x0..<x1 × y0..<y1 (inside the pixmap) as a new pixmap.
    func cropped(x0: Int, y0: Int, x1: Int, y1: Int) -> Pixmap {
        precondition(x0 >= 0 && y0 >= 0 && x1 <= width && y1 <= height && x1 > x0 && y1 > y0, "crop outside the pixmap")
        var out = [UInt8]()
        out.reserveCapacity((x1 - x0) * (y1 - y0) * 4)
        for y in y0..<y1 { out.append(contentsOf: data[(y * width + x0) * 4..<(y * width + x1) * 4]) }
        return Pixmap(width: x1 - x0, height: y1 - y0, premultiplied: out)
    }
}
