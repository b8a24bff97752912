// The sticker tray's routes (docs/editor-api.md): the packs and their stickers, a sticker's
// picture for the tray (with an ETag, so a reopened tray costs a 304 or nothing), and adding a
// sticker to a page at a point through the same operation `techo add sticker` calls.
import Foundation
import TechoCodecs
import TechoEditing
import TechoExport
import TechoGeometry
import TechoModel
import TechoRaster

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

/// The tray's thumbnails as one picture: every SVG sticker drawn into a square tile of one PNG,
/// so the tray's first open is one request and one decode (off the browser's main thread)
/// instead of a request and an SVG rasterised on the main thread per sticker.
struct StickerAtlas: Sendable {
    /// Pixels a side of a tile: 2x the tray's 44 px.
    static let tile = 96
    /// Tiles a row.
    static let columns = 16
    /// What it was made from: each sticker's ref and its file's stamp.
    let stamp: String
    let png: [UInt8]
    let etag: String
    /// Per `PACK/NAME`: its tile's index, or none (a picture that is not SVG: the tray loads it alone).
    let tiles: [String: Int]
    /// Per `PACK/NAME`: its natural size, where known.
    let sizes: [String: (Int, Int)]
}

/// The server's one background warm-up: started once, from any thread, and waited for when the
/// server stops. A process must not exit while that thread is inside a C library (drawing an
/// SVG): exit runs the libraries' destructors under it, and the process died of a signal
/// instead of exiting 0 on SIGTERM.
final class BackgroundWork: @unchecked Sendable {
    private let condition = NSCondition()
    private var started = false
    private var running = false
    private var stopping = false

    /// True the first time only, and not once the server is stopping; the caller then runs the
    /// work and calls `finish()`.
    func claim() -> Bool {
        condition.lock()
        defer { condition.unlock() }
        if started || stopping { return false }
        started = true
        running = true
        return true
    }

    /// Whether the server has begun to stop: long work checks this between its pieces.
    var isStopping: Bool {
        condition.lock()
        defer { condition.unlock() }
        return stopping
    }

    func finish() {
        condition.lock()
        running = false
        condition.broadcast()
        condition.unlock()
    }

    /// Marks the server as stopping and waits for the work to end, at most `timeout` seconds.
    /// - Returns: whether it ended.
    @discardableResult
    func stopAndWait(timeout: Double) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        stopping = true
        let deadline = Date(timeIntervalSinceNow: timeout)
        while running {
            if !condition.wait(until: deadline) { return !running }
        }
        return true
    }
}

/// What a warm-up that was cut short by the server stopping throws: nothing is cached.
struct WarmUpStopped: Error {}

/// The one atlas kept (made again when a pack changes), made by one thread at a time.
final class StickerAtlasCache: @unchecked Sendable {
    private let lock = NSLock()
    private var current: StickerAtlas?

    func atlas(stamp: String, make: () throws -> StickerAtlas) rethrows -> StickerAtlas {
        lock.lock()
        defer { lock.unlock() }
        if let a = current, a.stamp == stamp { return a }
        let a = try make()
        current = a
        return a
    }
}

extension EditorServer {
    /// What the atlas depends on: every sticker's ref and, for a user's file, its stat.
    func stickerStamp(_ packs: [StickerPack]) -> String {
        var parts: [String] = []
        for p in packs {
            for s in p.stickers {
                var stamp = "built-in"
                if !s.builtin {
                    let path = StickerPacks.userFolder().appendingPathComponent(p.name).appendingPathComponent("\(s.ref.name).\(s.ext)").path
                    var st = stat()
                    if stat(path, &st) == 0 { stamp = "\(st.st_size)-\(st.st_mtim.tv_sec)-\(st.st_mtim.tv_nsec)-\(st.st_ino)" }
                }
                parts.append("\(s.ref) \(s.ext) \(stamp)")
            }
        }
        return parts.joined(separator: "\n")
    }

    /// The atlas of `packs` as they are now: from the cache, or drawn (a sticker that cannot be
    /// read or drawn gets no tile; the tray then loads its picture alone and says what is wrong).
    func stickerAtlas(_ packs: [StickerPack], stopsWith work: BackgroundWork? = nil) throws -> StickerAtlas {
        let stamp = stickerStamp(packs)
        return try stickerAtlases.atlas(stamp: stamp) {
            let side = StickerAtlas.tile, columns = StickerAtlas.columns
            var tiles: [String: Int] = [:]
            var sizes: [String: (Int, Int)] = [:]
            var drawn: [(Int, Pixmap)] = []
            for p in packs {
                for s in p.stickers where s.ext == "svg" {
                    if work?.isStopping == true { throw WarmUpStopped() }
                    guard let (bytes, _) = try? StickerPacks.bytes(of: s.ref),
                        let info = try? ImageDecoder.info(of: bytes, name: "\(s.ref)"),
                        let pixmap = try? SVGRendering.render(bytes, name: "\(s.ref)", width: side, height: side)
                    else { continue }
                    let key = "\(s.ref)"
                    tiles[key] = drawn.count
                    sizes[key] = (info.naturalWidth, info.naturalHeight)
                    drawn.append((drawn.count, pixmap))
                }
            }
            let rows = max(1, (drawn.count + columns - 1) / columns)
            let width = side * min(columns, max(1, drawn.count))
            var atlas = Pixmap(width: width, height: side * rows)
            for (i, tile) in drawn {
                let x0 = (i % columns) * side, y0 = (i / columns) * side
                for y in 0..<side {
                    let from = y * side * 4, to = ((y0 + y) * width + x0) * 4
                    atlas.data.replaceSubrange(to..<(to + side * 4), with: tile.data[from..<(from + side * 4)])
                }
            }
            let png = try EditError.wrapping { try PNGEncoder.encode(atlas, level: 6, name: "sticker atlas") }
            return StickerAtlas(stamp: stamp, png: png, etag: "\"a-\(SHA256.hex(png).prefix(32))\"", tiles: tiles, sizes: sizes)
        }
    }

    /// Once per server, on a thread of its own at the render workers' priority (edits go first;
    /// lower, a busy machine starved it and the tray's first request waited on it): the
    /// program's identity that render keys (thumbnails' ETags) start with, then the sticker atlas.
    func warmStickerAtlas() {
        let work = warming
        guard work.claim() else { return }
        let thread = Thread { [weak self] in
            defer { work.finish() }
            _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0) + 10)
            RenderKey.warm()
            guard let self, !work.isStopping else { return }
            _ = try? self.stickerAtlas(StickerPacks.all().packs, stopsWith: work)
        }
        thread.name = "techo-serve-warm"
        thread.start()
    }

    /// `GET /api/stickers`: every pack, built-in first, with its stickers' names, natural sizes
    /// and tiles in the atlas (`atlas`: the URL of the picture, the tile's side and the tiles a row).
    func stickerList() throws -> HTTPResponse {
        let packs = StickerPacks.all().packs
        let atlas = try stickerAtlas(packs)
        let list: [JSONValue] = packs.map { p in
            .object([
                "name": .string(p.name), "builtin": .bool(p.builtin),
                "stickers": .array(
                    p.stickers.map { s in
                        let key = "\(s.ref)"
                        var o: [String: JSONValue] = ["name": .string(s.ref.name), "sticker": .string(key)]
                        if let t = atlas.tiles[key] { o["tile"] = .number(Double(t)) }
                        if let (w, h) = atlas.sizes[key] { o["size"] = [.number(Double(w)), .number(Double(h))] }
                        return .object(o)
                    }),
            ])
        }
        let version = atlas.etag.trimmingCharacters(in: CharacterSet(charactersIn: "\""))
        var r = HTTPResponse.json(
            200,
            .object([
                "packs": .array(list),
                "atlas": [
                    "src": .string("/api/stickers/atlas.png?v=\(version)"), "tile": .number(Double(StickerAtlas.tile)),
                    "columns": .number(Double(StickerAtlas.columns)),
                ],
            ]))
        r.headers.append(("Cache-Control", "no-cache"))
        return r
    }

    /// `GET /api/stickers/atlas.png`: the tray's thumbnails in one PNG (see `stickerList`).
    func stickerAtlasPicture(_ request: HTTPRequest) throws -> HTTPResponse {
        let atlas = try stickerAtlas(StickerPacks.all().packs)
        // The list names it with its version: a URL with the current one never changes.
        let current = request.query["v"].map { "\"\($0)\"" == atlas.etag } ?? false
        let headers = [
            ("Content-Type", "image/png"), ("ETag", atlas.etag),
            ("Cache-Control", current ? "private, max-age=31536000, immutable" : "private, no-cache"),
        ]
        if let given = request.header("if-none-match"), given.split(separator: ",").contains(where: { $0.trimmingCharacters(in: .whitespaces) == atlas.etag }) {
            return HTTPResponse(status: 304, headers: headers)
        }
        return HTTPResponse(status: 200, headers: headers, body: .bytes(atlas.png))
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
