// Decoded images, kept per (asset, decode scale) within a byte budget, so a page that shows
// one sticker twice, or a multi-page export that reuses a paper texture, decodes it once.
// JPEGs are decoded at the smallest DCT scale (1/8, 1/4, 1/2, 1) that still gives the device
// size the page needs; PNGs (libpng has no reduced decode) are box-averaged to the same scale
// once, when they are decoded.

import Foundation
import TechoCodecs
import TechoModel
import TechoRaster

/// A thread-safe cache of decoded assets and of pixmaps derived from them. Concurrent requests
/// for the same key compute once. The cache holds at most `budget` bytes of pixels: past that,
/// the least recently used entries are dropped (a multi-page export keeps only what the pages
/// being rendered need).
final class ImageCache: @unchecked Sendable {
    private struct Key: Hashable, OfAsset {
        var asset: AssetRef
        var denominator: Int
    }

    /// One computation, shared by every thread that asks for it.
    private final class Slot: @unchecked Sendable {
        let lock = NSLock()
        var result: Result<Pixmap, Error>?
        var bytes = 0
        var lastUse: UInt64 = 0
    }

    private let lock = NSLock()
    private var slots: [AnyHashable: Slot] = [:]
    private var infos: [AssetRef: ImageInfo] = [:]
    private var formats: [AssetRef: ImageFormat] = [:]
    private var clock: UInt64 = 0
    private var total = 0
    let assetURL: (AssetRef) throws -> URL
    /// Bytes of pixels kept. Default 512 MiB.
    let budget: Int
    /// Told of each asset whose file was decoded without an error by a decode that stands for
    /// its whole-stream check (`DecodedImage.standsForCheck`), with its format. Default nil.
    let decoded: ((AssetRef, ImageFormat) -> Void)?

    init(assetURL: @escaping (AssetRef) throws -> URL, budget: Int = 512 << 20, decoded: ((AssetRef, ImageFormat) -> Void)? = nil) {
        self.assetURL = assetURL
        self.budget = budget
        self.decoded = decoded
    }

    /// The asset decoded at a size of at least `needed` device pixels (width, height) of its
    /// `natural` size (never larger than the natural size).
    ///
    /// - Throws: a message naming the asset path (`assets/….jpg: corrupt JPEG data: …`).
    func image(_ asset: AssetRef, natural: (Double, Double), needed: (Double, Double)) throws -> Pixmap {
        if isVector(asset) { return try vector(asset, needed: needed) }
        var denominator = 1
        // The largest power-of-two reduction that still covers the needed size.
        for d in [8, 4, 2] where natural.0 / Double(d) >= needed.0 && natural.1 / Double(d) >= needed.1 {
            denominator = d
            break
        }
        return try cached(Key(asset: asset, denominator: denominator)) {
            try decode(asset, denominator: denominator, natural: natural)
        }
    }

    /// A pixmap computed from decoded pixels (a cropped and adjusted photo), made once per key.
    func derived(_ key: AnyHashable, make: () -> Pixmap) -> Pixmap {
        // `make` cannot throw, so neither can this.
        (try? cached(key, make)) ?? make()
    }

    func cached(_ key: AnyHashable, _ make: () throws -> Pixmap) throws -> Pixmap {
        lock.lock()
        clock += 1
        let slot: Slot
        if let s = slots[key] { slot = s } else { slot = Slot(); slots[key] = slot }
        slot.lastUse = clock
        lock.unlock()
        slot.lock.lock()
        defer { slot.lock.unlock() }
        if let r = slot.result { return try r.get() }
        let result = Result { try make() }
        slot.result = result
        if case .success(let p) = result {
            lock.lock()
            // A slot forgotten while it was being made is not counted: nothing holds it.
            if slots[key] === slot {
                slot.bytes = p.data.count
                total += slot.bytes
                evict(keeping: key)
            }
            lock.unlock()
        }
        return try result.get()
    }

    /// Bytes of pixels kept now.
    var bytes: Int {
        lock.lock()
        defer { lock.unlock() }
        return total
    }

    /// Drops every picture made from `assets` (decoded, derived, rendered at any size). Threads
    /// still drawing one keep its pixels; a later draw makes it again.
    func forget(_ assets: Set<AssetRef>) {
        guard !assets.isEmpty else { return }
        lock.lock()
        defer { lock.unlock() }
        for (k, s) in slots {
            guard let a = (k.base as? OfAsset)?.asset, assets.contains(a) else { continue }
            total -= s.bytes
            slots[k] = nil
        }
    }

    /// Drops least recently used finished entries until the total is within the budget.
    /// Called with `lock` held. Threads still holding an evicted slot keep its pixels.
    private func evict(keeping key: AnyHashable) {
        guard total > budget else { return }
        let order = slots.filter { $0.key != key && $0.value.bytes > 0 }.sorted { $0.value.lastUse < $1.value.lastUse }
        for (k, s) in order where total > budget {
            total -= s.bytes
            slots[k] = nil
        }
    }

    /// Whether the asset is an SVG, told from its first 4 KiB (whatever its extension).
    func isVector(_ asset: AssetRef) -> Bool { format(asset) == .svg }

    /// The asset's format as its decode will sniff it, from its first 4 KiB (whatever its
    /// extension), read once per asset; nil for a file that cannot be read or is of no known
    /// format (its decode then reports why), asked again next time (it may be there by then: an
    /// asset is named by its bytes, so a format once told never changes).
    func format(_ asset: AssetRef) -> ImageFormat? {
        lock.lock()
        let known = formats[asset]
        lock.unlock()
        if let f = known { return f }
        // Never blocks: a FIFO or device in place of an asset reads as nothing here, and its
        // decode then reports what it is.
        let head = (try? assetURL(asset)).map { FileBytes.head(of: $0.path, count: 4096) } ?? []
        guard let f = ImageFormat.sniff(head) else { return nil }
        lock.lock()
        formats[asset] = f
        lock.unlock()
        return f
    }

    /// The asset's natural (displayed) size, from its header, cached.
    func naturalSize(_ asset: AssetRef) throws -> (Double, Double) {
        let i = try info(asset)
        return (Double(i.naturalWidth), Double(i.naturalHeight))
    }

    /// The asset's header (format, size, orientation), read once.
    func info(_ asset: AssetRef) throws -> ImageInfo {
        lock.lock()
        let known = infos[asset]
        lock.unlock()
        if let i = known { return i }
        let url: URL
        do { url = try assetURL(asset) } catch { throw AssetFailure(asset: asset, message: "\(error)") }
        let info: ImageInfo
        do { info = try ImageDecoder.info(contentsOf: url.path) } catch let e as ImageError { throw failure(asset, e) }
        lock.lock()
        infos[asset] = info
        lock.unlock()
        return info
    }

    /// An image error restated with the asset's journal path instead of the machine's path.
    func failure(_ asset: AssetRef, _ e: ImageError) -> AssetFailure {
        let text = e.description
        let tail = text.hasPrefix(e.file) ? String(text.dropFirst(e.file.count)) : ": " + text
        return AssetFailure(asset: asset, message: asset.path + tail)
    }

    private func decode(_ asset: AssetRef, denominator: Int, natural: (Double, Double)) throws -> Pixmap {
        let url: URL
        do { url = try assetURL(asset) } catch { throw AssetFailure(asset: asset, message: "\(error)") }
        let minimum =
            denominator == 1
            ? nil
            : (width: Int((natural.0 / Double(denominator)).rounded(.up)), height: Int((natural.1 / Double(denominator)).rounded(.up)))
        do {
            let image = try ImageDecoder.decode(contentsOf: url.path, minimumSize: minimum)
            if image.standsForCheck { decoded?(asset, image.info.format) }
            // PNG has no reduced decode: box-average it once here, as the DCT does for JPEG,
            // instead of on every draw.
            let reduction = denominator / image.scaleDenominator
            return reduction > 1 ? image.pixels.downsampled(by: reduction) : image.pixels
        } catch let e as ImageError {
            // Name the asset as the journal does, not by the machine's absolute path.
            throw failure(asset, e)
        }
    }
}

/// A cache key of a picture made from one asset (`ImageCache.forget`).
protocol OfAsset {
    var asset: AssetRef { get }
}

/// An asset that could not be read or decoded; the renderer adds the page and element.
struct AssetFailure: Error, CustomStringConvertible {
    var asset: AssetRef
    var message: String
    var description: String { message }
}
