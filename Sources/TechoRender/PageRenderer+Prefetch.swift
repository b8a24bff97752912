// Decoding ahead: a page's pictures are decoded on other cores while the page is composed, so
// a photo is usually ready by the time it is drawn instead of being decoded in turn. Requests
// are the ones the draw calls make (same natural and needed sizes, so the same cache keys):
// nothing is decoded twice, and a failed decode stays in the cache for the draw call that needs
// the picture to throw, as it did before.

import Dispatch
import TechoModel

extension PageRenderer {
    /// Starts decoding the page's image stickers and photos on other threads; `group` is
    /// notified when every decode has finished.
    func prefetchPictures(of page: Page, canvas: Canvas, group: DispatchGroup) {
        for e in page.elements where !e.hidden && e.opacity > 0 {
            let asset: AssetRef, natural: (Double, Double)
            switch e.content {
            case .image(let image): (asset, natural) = (image.asset, (image.naturalWidth, image.naturalHeight))
            case .photo(let photo): (asset, natural) = (photo.image.asset, (photo.image.naturalWidth, photo.image.naturalHeight))
            default: continue
            }
            let k = canvas.toDevice(e).maxScale
            let needed = (natural.0 * k, natural.1 * k)
            let images = self.images
            DispatchQueue.global().async(group: group) { _ = try? images.image(asset, natural: natural, needed: needed) }
        }
    }
}
