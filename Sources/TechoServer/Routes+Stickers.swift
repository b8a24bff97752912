// The sticker tray's routes (docs/editor-api.md): the packs and their stickers, a sticker's
// picture for the tray (with an ETag, so a reopened tray costs a 304 or nothing), and adding a
// sticker to a page at a point through the same operation `techo add sticker` calls.
import Foundation
import TechoCodecs
import TechoEditing
import TechoGeometry
import TechoModel

/// The tray's pictures already read, by `PACK/NAME` and the file's stat, so a tray opened again
/// reads and hashes nothing.
final class StickerPictureCache: @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [String: (stamp: String, type: String, bytes: [UInt8], etag: String)] = [:]
    /// At most this many pictures are kept (then the cache starts over).
    static let maxEntries = 2000

    func get(_ key: String, stamp: String) -> (type: String, bytes: [UInt8], etag: String)? {
        lock.lock()
        defer { lock.unlock() }
        guard let e = entries[key], e.stamp == stamp else { return nil }
        return (e.type, e.bytes, e.etag)
    }

    func put(_ key: String, stamp: String, type: String, bytes: [UInt8], etag: String) {
        lock.lock()
        defer { lock.unlock() }
        if entries.count >= StickerPictureCache.maxEntries { entries.removeAll() }
        entries[key] = (stamp, type, bytes, etag)
    }
}

extension EditorServer {
    /// `GET /api/stickers`: every pack, built-in first, with its stickers' names.
    func stickerList() -> HTTPResponse {
        let packs = StickerPacks.all().packs
        let list: [JSONValue] = packs.map { p in
            .object([
                "name": .string(p.name), "builtin": .bool(p.builtin),
                "stickers": .array(p.stickers.map { .object(["name": .string($0.ref.name), "sticker": .string("\($0.ref)")]) }),
            ])
        }
        var r = HTTPResponse.json(200, .object(["packs": .array(list)]))
        r.headers.append(("Cache-Control", "no-cache"))
        return r
    }

    /// `GET /api/stickers/PACK/NAME`: the sticker's picture as the browser shows it (SVG, PNG,
    /// JPEG and WebP as they are; HEIF and AVIF, which browsers may not show, as a PNG).
    func stickerPicture(_ pack: String, _ name: String, _ request: HTTPRequest) throws -> HTTPResponse {
        let ref = try StickerRef(parsing: "\(pack)/\(name)", what: "sticker")
        let found = try StickerPacks.all().packs.first { $0.name == ref.pack }?.stickers.first { $0.ref.name == ref.name }
        // The user's file's stat (size and time) says when a cached picture is stale; a built-in one never is.
        var stamp = "built-in"
        if let s = found, !s.builtin {
            let path = StickerPacks.userFolder().appendingPathComponent(ref.pack).appendingPathComponent("\(ref.name).\(s.ext)").path
            var st = stat()
            if stat(path, &st) == 0 { stamp = "\(st.st_size)-\(st.st_mtim.tv_sec)-\(st.st_mtim.tv_nsec)-\(st.st_ino)" }
        }
        let key = "\(ref)"
        let picture: (type: String, bytes: [UInt8], etag: String)
        if let hit = stickerPictures.get(key, stamp: stamp) {
            picture = hit
        } else {
            let (bytes, ext) = try StickerPacks.bytes(of: ref)
            let types = ["svg": "image/svg+xml", "png": "image/png", "jpg": "image/jpeg", "jpeg": "image/jpeg", "webp": "image/webp"]
            var out = bytes
            var type = types[ext] ?? "image/png"
            if types[ext] == nil {
                let decoded = try EditError.wrapping { try ImageDecoder.decode(bytes, name: key, minimumSize: (256, 256)) }
                out = try EditError.wrapping { try PNGEncoder.encode(decoded.pixels, level: 3, name: key) }
                type = "image/png"
            }
            picture = (type, out, "\"\(SHA256.hex(out).prefix(32))\"")
            stickerPictures.put(key, stamp: stamp, type: picture.type, bytes: picture.bytes, etag: picture.etag)
        }
        // A sticker's SVG is shown as a picture, never run as a document: no scripts, no fetches.
        let headers = [
            ("Content-Type", picture.type), ("ETag", picture.etag), ("Cache-Control", "private, max-age=60"),
            ("X-Content-Type-Options", "nosniff"), ("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; sandbox"),
        ]
        if let given = request.header("if-none-match"), given.split(separator: ",").contains(where: { $0.trimmingCharacters(in: .whitespaces) == picture.etag })
        {
            return HTTPResponse(status: 304, headers: headers)
        }
        return HTTPResponse(status: 200, headers: headers, body: .bytes(picture.bytes))
    }

    /// `POST /api/pages/ID/stickers` with `{"sticker": "PACK/NAME", "at": [X, Y], "width": W}`:
    /// the sticker centred at `at` (default: the page's centre), `width` pixels wide (default:
    /// its natural size, kept inside the page). Answers the new element's id and the revision.
    func addSticker(_ id: String, _ request: HTTPRequest) throws -> HTTPResponse {
        let (ctx, root) = try body(request)
        var name: String?
        var at: (Double, Double)?
        var width: Double?
        if let o = root.object() {
            name = o.required("sticker")?.string()
            at = o.optional("at")?.point(in: -Placement.maxCoordinate...Placement.maxCoordinate)
            width = o.optional("width")?.number(in: 1...1e5)
            o.finish()
        }
        try ctx.throwIfProblems()
        guard let name else { throw EditError(.invalid, "request body: missing sticker") }
        let ref = try StickerRef(parsing: name, what: "sticker")
        // The page must exist before anything is read or stored.
        _ = try page(id, in: try snapshot())
        let added = try StickerPacks.addSticker(ref, to: id, of: store, renderer: renderer) { image, page in
            let center = at.map { Point($0.0, $0.1) }
            var new = NewElement(content: .image(image), center: center, fitToPage: true)
            if let width { new.placement = try Placement(center: center ?? page.center, scale: width / image.naturalWidth) }
            return new
        }
        return .json(200, .object(["id": .string(added), "revision": .number(Double(watcher.refresh()))]))
    }
}
