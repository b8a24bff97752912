// Where each element draws, in page space: for endless (`auto`) pages, which grow to hold it.

import TechoModel
import TechoRaster

extension PageRenderer {
    /// The page-space bounds of everything `e` draws (outline, frame and shadow included).
    func pageBounds(of e: Element) throws -> Rect {
        let t = e.transform
        switch e.content {
        case .image(let i):
            let r = Rect(x: -i.naturalWidth / 2, y: -i.naturalHeight / 2, width: i.naturalWidth, height: i.naturalHeight)
            return r.outset(by: i.outline?.width ?? 0).applying(t)
        case .photo(let p):
            let g = PhotoGeometry(p)
            var r = g.card.applying(t)
            if p.shadow { r = r.union(r.offsetBy(g.shadowOffset * e.placement.scale).outset(by: 3 * g.shadowBlur * e.placement.scale)) }
            return r
        case .text(let text):
            let laid = try layout(text)
            return textBounds(laid, text).applying(t)
        case .ink(let ink):
            var r = Rect.null
            for s in ink.strokes where s.tool != .eraser { r = r.union(try strokeBounds(s)) }
            return r
        case .washi(let w):
            return WashiShape(length: w.length, width: w.width, ends: w.ends, seed: e.id).path.bounds
                .applying(w.frame.concatenating(t))
        }
    }
}
