// The pages list's thumbnails (docs/editor-api.md): a page rendered small, at the thumbnail's
// own scale (the renderer draws 160 px, it does not draw the page whole and shrink it), kept by
// the page's render key (the key `techo export` uses to rebuild only what changed), so a page
// that has not changed is never drawn twice, and sent with that key as its ETag, so a browser
// that has it is answered 304 without a render.
import Foundation
import TechoCodecs
import TechoEditing
import TechoExport
import TechoModel

/// Thumbnails by render key: least recently used first out, bounded in count and bytes.
final class ThumbnailCache: @unchecked Sendable {
    /// Thumbnails kept at most: every page of a long journal at two heights.
    static let capacity = 1024
    /// Bytes kept at most: 48 MiB (a 160 px thumbnail is 10–60 kB).
    static let maxBytes = 48 << 20
    private let lock = NSLock()
    private var entries: [String: [UInt8]] = [:]
    private var order: [String] = []  // least recently used first
    private var bytes = 0
    private(set) var hits = 0
    private(set) var misses = 0

    func get(_ key: String) -> [UInt8]? {
        lock.lock()
        defer { lock.unlock() }
        guard let e = entries[key] else { misses += 1; return nil }
        hits += 1
        if let i = order.firstIndex(of: key) { order.remove(at: i) }
        order.append(key)
        return e
    }

    func put(_ key: String, _ png: [UInt8]) {
        lock.lock()
        defer { lock.unlock() }
        guard entries[key] == nil, png.count <= Self.maxBytes else { return }
        entries[key] = png
        order.append(key)
        bytes += png.count
        while entries.count > Self.capacity || bytes > Self.maxBytes, let oldest = order.first {
            order.removeFirst()
            bytes -= entries.removeValue(forKey: oldest)?.count ?? 0
        }
    }

    var counts: (hits: Int, misses: Int) {
        lock.lock()
        defer { lock.unlock() }
        return (hits, misses)
    }
}

extension EditorServer {
    /// A thumbnail's height unless `h=` says otherwise, and the range `h=` may ask for.
    static let thumbnailHeight = 160
    static let thumbnailHeights = 16...640
    /// A thumbnail is at most this many times as wide as it is tall (a long strip of an endless page).
    static let thumbnailMaxAspect = 4.0

    /// `h` from the query: a whole number of pixels in `thumbnailHeights`.
    func thumbnailHeight(_ request: HTTPRequest) throws -> Int {
        guard let text = request.query["h"] else { return Self.thumbnailHeight }
        guard let h = Int(text), Self.thumbnailHeights.contains(h) else {
            throw EditError(
                .invalid,
                "h: expected a whole number of pixels from \(Self.thumbnailHeights.lowerBound) to \(Self.thumbnailHeights.upperBound), got '\(text)'")
        }
        return h
    }

    /// The page `p`'s thumbnail scale for height `h`, and its ETag (the render key at that scale).
    func thumbnailKey(_ p: Page, height h: Int) throws -> (scale: Double, etag: String) {
        let size = try renderer.resolvedSize(of: p)
        let scale = min(Double(h) / max(size.height, 1), Double(h) * Self.thumbnailMaxAspect / max(size.width, 1))
        var settings = ExportSettings()
        settings.level = 6
        let key = RenderKey.of(p, scale: scale, settings: settings, renderer: renderer)
        let hex = key.prefix(20).map { String(format: "%02x", $0) }.joined()
        return (scale, "\"t-\(hex)\"")
    }

    /// `GET /api/pages/ID/thumbnail?h=H`: the page `H` pixels tall (default 160), a PNG.
    func thumbnail(_ id: String, _ request: HTTPRequest) throws -> HTTPResponse {
        let h = try thumbnailHeight(request)
        let p = try page(id, in: try snapshot())
        return try thumbnailResponse(p, height: h, job: "thumbnail \(id)", name: "page \(id) thumbnail", request)
    }

    /// `GET /api/templates/NAME/thumbnail?h=H`: the page a new page from the built-in template
    /// NAME would be now, `H` pixels tall (default 160), a PNG; cached and revalidated as a
    /// page's thumbnail is (its ETag is that page's render key, so it changes only when the
    /// picture would).
    func templateThumbnail(_ name: String, _ request: HTTPRequest) throws -> HTTPResponse {
        let h = try thumbnailHeight(request)
        let s = try snapshot()
        let p = try PageEdits.templatePreview(name, journal: s.journal, pages: s.pages)
        return try thumbnailResponse(p, height: h, job: "template \(name)", name: "template \(name) thumbnail", request)
    }

    /// The thumbnail of `p` at height `h`: 304 for a browser that has it, else from the cache
    /// or drawn by the render queue (`job` names the work that requests share).
    func thumbnailResponse(_ p: Page, height h: Int, job: String, name: String, _ request: HTTPRequest) throws -> HTTPResponse {
        let (scale, etag) = try thumbnailKey(p, height: h)
        // Revalidated on each use: a page edited since shows its new thumbnail at once.
        let headers = [("ETag", etag), ("Cache-Control", "private, no-cache")]
        if let given = request.header("if-none-match"), given.split(separator: ",").contains(where: { $0.trimmingCharacters(in: .whitespaces) == etag }) {
            return HTTPResponse(status: 304, headers: headers)
        }
        if let png = thumbnails.get(etag) {
            return HTTPResponse(status: 200, headers: headers + [("Content-Type", "image/png"), ("Server-Timing", "cache;desc=hit")], body: .bytes(png))
        }
        // Drawn by the render queue's workers (a few at once, behind edits), requests for the same
        // page and height sharing one render.
        let (png, made) = try renderQueue.answer("\(job) \(h) \(etag)") {
            var seconds = 0.0
            let png: [UInt8]
            if let kept = self.thumbnails.get(etag) {
                png = kept
            } else {
                let t0 = ContinuousClock.now
                let rendered = try self.renderer.render(p, scale: scale)
                png = try PNGEncoder.encode(rendered.pixmap, dpi: rendered.dpi, level: 6, name: name)
                let d = ContinuousClock.now - t0
                seconds = Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
                self.thumbnails.put(etag, png)
            }
            return HTTPResponse(status: 200, headers: [("Server-Timing", String(format: "render;dur=%.2f", seconds * 1000))], body: .bytes(png))
        }.thumbnailParts
        return HTTPResponse(status: 200, headers: headers + [("Content-Type", "image/png"), ("Server-Timing", made)], body: .bytes(png))
    }

    /// Renders served from the thumbnail cache and thumbnails looked for there in vain, since the start.
    var thumbnailCacheCounts: (hits: Int, misses: Int) { thumbnails.counts }
}

extension HTTPResponse {
    /// A thumbnail job's answer as its bytes and its Server-Timing.
    fileprivate var thumbnailParts: ([UInt8], String) {
        guard case .bytes(let b) = body else { return ([], "") }
        return (b, headers.first { $0.0 == "Server-Timing" }?.1 ?? "")
    }
}
