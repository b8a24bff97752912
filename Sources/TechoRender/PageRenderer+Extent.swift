// What an element covers, for callers outside the renderer (the editor's hit boxes and sprites).

import TechoGeometry
import TechoModel

extension PageRenderer {
    /// The page-space box of everything `element` draws: outline, frame and shadow included; for
    /// ink, its strokes (erasers excluded). `Rect.null` for an ink layer with nothing drawn.
    /// - Throws: when a text element cannot be laid out.
    public func drawnBounds(of element: Element) throws -> Rect { try pageBounds(of: element) }
}
