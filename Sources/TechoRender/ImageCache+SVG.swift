// SVG stickers, backgrounds and tape patterns: rendered by librsvg at the device size each draw
// needs, instead of decoded once and resampled, so a vector stays sharp at --scale 4 or
// pinched large. Each size is rendered once and kept in the cache like a decoded picture; the
// sizes are whole pixels, rounded up, so a draw and its prefetch share one render.

import Foundation
import TechoCodecs
import TechoModel
import TechoRaster

extension ImageCache {
    private struct VectorKey: Hashable, OfAsset {
        var asset: AssetRef
        var width: Int
        var height: Int
    }

    /// The SVG asset rendered at `needed` device pixels (rounded up to whole pixels), or at the
    /// largest size within the image limits with the same aspect when `needed` is over them.
    func vector(_ asset: AssetRef, needed: (Double, Double)) throws -> Pixmap {
        let (w, h) = Self.renderSize(needed, limits: .default)
        return try cached(VectorKey(asset: asset, width: w, height: h)) {
            let url: URL
            do { url = try assetURL(asset) } catch { throw AssetFailure(asset: asset, message: "\(error)") }
            do {
                let bytes = try FileBytes.contents(of: url.path, maxBytes: SVGRendering.maxFileBytes)
                return try SVGRendering.render(bytes, name: url.path, width: w, height: h)
            } catch let e as ImageError {
                throw failure(asset, e)
            }
        }
    }

    /// Whole-pixel render size for `needed`: at least 1 × 1, and scaled down uniformly to fit
    /// `limits` (a sticker pinched far past the page would otherwise ask for gigapixels; the
    /// page itself is at most 16384 px a side, so the limit never costs visible sharpness).
    static func renderSize(_ needed: (Double, Double), limits: ImageLimits) -> (Int, Int) {
        var w = needed.0.isFinite ? max(1, needed.0) : 1, h = needed.1.isFinite ? max(1, needed.1) : 1
        let side = Double(limits.maxSide)
        let fit = min(1, side / w, side / h, (Double(limits.maxPixels) / (w * h)).squareRoot())
        // Round up to cover what is needed; when shrunk to the limits, round down to stay in them.
        let rule: FloatingPointRoundingRule = fit < 1 ? .down : .up
        w = (w * fit).rounded(rule)
        h = (h * fit).rounded(rule)
        return (max(1, min(limits.maxSide, Int(w))), max(1, min(limits.maxSide, Int(h))))
    }
}
