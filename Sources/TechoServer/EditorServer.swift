// `techo serve`: one journal in a browser. This type owns the pieces (the daemon, the journal's
// store, one long-lived renderer with its caches, the render cache and the watcher) and decides
// about each request: who may ask (token, Host, Origin), how big its body may be, and which
// route answers. The routes (Routes+Read, Routes+Edit) call the same model, transactions and
// shared operations as the CLI commands. docs/editor-api.md is the contract.
import Foundation
import TechoCodecs
import TechoEditing
import TechoExport
import TechoModel
import TechoRender

/// How a server listens.
public struct ServerOptions: Sendable {
    /// The address to listen on. Default `127.0.0.1`. Not read when `lan` is set.
    public var host = "127.0.0.1"
    /// Listen on every address of the machine, for a tablet or phone on the same network
    /// (`techo serve --lan`): the URLs are those of `NetworkAddresses.lan()`. Default false.
    public var lan = false
    /// Speak HTTPS with this certificate and key (`--tls-cert`, `--tls-key`). Default nil: HTTP.
    public var tls: HTTPDaemon.TLSCredentials?
    /// The port; 0 takes any free one. Default 7373.
    public var port: UInt16 = 7373
    /// The editor page's folder on disk; nil serves the copy built into techo. Default:
    /// `EditorFiles.locate` (`$TECHO_RESOURCES/editor` when that folder exists, else nil).
    public var editorFolder: URL? = EditorFiles.locate(override: nil)
    /// The secret every request must carry. Default: 32 random bytes, hex.
    public var token = ServerOptions.randomToken()
    /// Seconds between looks at the journal's files. Default 0.25.
    public var watchInterval = 0.25
    /// Seconds between the comments an event stream sends to keep itself open. Default 15.
    public var keepAlive = 15.0
    /// Connection limits. Default `HTTPDaemon.Limits()`.
    public var limits = HTTPDaemon.Limits()
    /// Where log lines go (one per request that fails, and start/stop). Default: nowhere.
    public var log: @Sendable (String) -> Void = { _ in }

    public init() {}

    /// Whether `host` may be reached from other machines: anything but a loopback address
    /// (127.0.0.0/8, ::1, or ::ffff:127.x.y.z).
    public static func reachesOtherMachines(_ host: String) -> Bool {
        var v4 = in_addr(), v6 = in6_addr()
        if inet_pton(AF_INET, host, &v4) == 1 { return UInt32(bigEndian: v4.s_addr) >> 24 != 127 }
        guard inet_pton(AF_INET6, host, &v6) == 1 else { return true }
        let b = withUnsafeBytes(of: v6) { Array($0) }
        if b[0..<15].allSatisfy({ $0 == 0 }) && b[15] == 1 { return false }
        if b[0..<10].allSatisfy({ $0 == 0 }) && b[10] == 0xFF && b[11] == 0xFF { return b[12] != 127 }
        return true
    }

    /// What `techo serve` warns of before it serves: an address other machines can reach.
    public var warnings: [String] {
        if tls != nil { return [] }
        if lan {
            return [
                "listening on every network address of this machine in plain HTTP, unencrypted: anyone on the network who sees "
                    + "the URL (or the QR code) can read and change this journal; use it on a network you trust"
            ]
        }
        guard ServerOptions.reachesOtherMachines(host) else { return [] }
        return [
            "listening on \(host), which other machines can reach: the token and the journal travel in plain HTTP, unencrypted, "
                + "so anyone on the network who sees the URL can read and change this journal"
        ]
    }

    /// 32 bytes from the system's cryptographic generator, as 64 hex digits.
    public static func randomToken() -> String {
        var g = SystemRandomNumberGenerator()
        return (0..<32).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &g)) }.joined()
    }
}

/// A refusal or failure with its HTTP status and a message naming what is at fault.
struct APIError: Error {
    var status: Int
    var message: String
    init(_ status: Int, _ message: String) { self.status = status; self.message = message }

    /// The status for an `EditError` of this kind.
    static func status(of kind: EditError.Kind) -> Int {
        switch kind {
        case .invalid: return 400
        case .notFound: return 404
        case .conflict: return 409
        case .tooLarge: return 413
        case .unsupportedFormat: return 415
        case .unrenderable: return 422
        case .cannotCreate, .failure: return 500
        }
    }
}

/// The editor's server for one journal.
public final class EditorServer: HTTPHandler, @unchecked Sendable {
    public let options: ServerOptions
    let store: JournalStore
    let renderer: PageRenderer
    let renders = RenderCache()
    /// Where renders wait for a worker (coalesced, at most two in the making).
    let renderQueue = RenderQueue()
    let watcher: JournalWatcher
    let files: EditorFiles
    let fonts: [String]
    private var daemon: HTTPDaemon?
    private var allowedHosts: Set<String> = []
    /// What the page cookie holds: 32 random bytes, hex, other than the token (see `hasToken`).
    let pageKey = ServerOptions.randomToken()
    /// The sticker tray's pictures, read once each.
    let stickerPictures = StickerPictureCache()
    /// The pages list's thumbnails, by render key.
    let thumbnails = ThumbnailCache()
    /// The sticker tray's thumbnails in one picture.
    let stickerAtlases = StickerAtlasCache()
    /// The background warm-up (render keys, sticker atlas), started once and waited for by `stop`.
    let warming = BackgroundWork()
    private let snapshotLock = NSLock()
    private var snapshotCache: (revision: UInt64, journal: Journal, pages: PageSet)?
    private var historyCache: (revision: UInt64, steps: [HistoryEntry])?

    /// Opens the journal at `journal` and starts serving it.
    /// - Throws: `StorageError` for a journal that cannot be opened, `ServerStartError` when the
    ///   address cannot be listened on.
    public init(journal: URL, options: ServerOptions = ServerOptions()) throws {
        self.options = options
        store = try JournalStore.open(journal)
        renderer = PageRenderer(assetURL: store.assetURL)
        files = EditorFiles(folder: options.editorFolder)
        fonts = FontFamilies.installed()
        watcher = JournalWatcher(folder: store.url, interval: options.watchInterval)
        do {
            if options.lan {
                // Both families on one socket where the machine has IPv6, else every IPv4 address.
                do {
                    daemon = try HTTPDaemon(host: "::", port: options.port, limits: options.limits, dualStack: true, tls: options.tls, handler: self)
                } catch let e as ServerStartError where options.tls != nil && e.description.hasPrefix("HTTPS") {
                    throw e
                } catch {
                    daemon = try HTTPDaemon(host: "0.0.0.0", port: options.port, limits: options.limits, tls: options.tls, handler: self)
                }
            } else {
                daemon = try HTTPDaemon(host: options.host, port: options.port, limits: options.limits, tls: options.tls, handler: self)
            }
        } catch {
            watcher.stop()
            renderQueue.stop()
            throw error
        }
        lanAddresses = options.lan ? NetworkAddresses.lan() : []
        let shown = NetworkAddresses.urlHost(options.host)
        allowedHosts = Set(["\(shown):\(port)", "localhost:\(port)", "127.0.0.1:\(port)", "[::1]:\(port)"])
        for a in lanAddresses { allowedHosts.insert("\(NetworkAddresses.urlHost(a).lowercased()):\(port)") }
    }

    /// With `lan`, the machine's network addresses when the server started (the URLs' hosts).
    public private(set) var lanAddresses: [String] = []

    /// Every URL the editor may be opened at, with the token: with `lan`, one per network
    /// address (`url` is the first); else `url` alone.
    public var urls: [String] {
        guard options.lan, !lanAddresses.isEmpty else { return [url] }
        return lanAddresses.map { "\(scheme)://\(NetworkAddresses.urlHost($0)):\(port)/?token=\(options.token)" }
    }

    /// Whether the editor's page is served (false: the API only).
    public var servesEditor: Bool { !files.isEmpty }

    /// The port it listens on.
    public var port: UInt16 { daemon?.port ?? 0 }

    /// The URL to open, with the token.
    public var url: String {
        let host = options.lan ? (lanAddresses.first ?? "127.0.0.1") : options.host
        return "\(scheme)://\(NetworkAddresses.urlHost(host)):\(port)/?token=\(options.token)"
    }

    /// `https` with TLS, else `http`.
    public var scheme: String { options.tls == nil ? "http" : "https" }

    /// Stops accepting connections, ends the event streams, lets requests in flight finish (up
    /// to `grace` seconds), then stops. Safe to call twice.
    public func stop(grace: Double = 30) {
        warming.stopAndWait(timeout: grace)
        watcher.stop()
        watcher.hub.close()
        daemon?.stop(grace: grace)
        daemon = nil
        renderQueue.stop(timeout: grace)
    }

    /// Requests being received or answered (event streams included).
    public var requestsInFlight: Int { daemon?.requestsInFlight ?? 0 }

    /// Connections the gate handed to the library, answered itself, timed out and closed to
    /// make room, since the start.
    var daemonGateStatistics: (handedOver: Int, refused: Int, timedOut: Int, evicted: Int) {
        daemon?.gateStatistics ?? (0, 0, 0, 0)
    }

    /// The connection limits the daemon was started with (nil once stopped).
    var daemonLimits: HTTPDaemon.Limits? { daemon?.limits }

    /// The limits the gate holds waiting heads to (nil once stopped).
    var gateLimits: ConnectionGate.Limits? { daemon?.gateLimits }

    /// Render jobs made and render requests that joined a waiting job, since the start.
    var renderQueueCounts: (made: Int, joined: Int) { renderQueue.counts }

    /// Renders served from the cache and renders made, since the start.
    public var renderCacheCounts: (hits: Int, misses: Int) { (renders.hits, renders.misses) }

    // MARK: Screening

    /// The largest upload (a picture's bytes): the image file limit, 512 MiB, so the browser
    /// may add any file `techo add` would take. docs/editor-api.md states it; a test checks both say the same.
    public static let uploadLimit = ImageLimits.default.maxFileBytes
    /// The largest JSON body: the limit of every JSON document techo reads, 8 MB.
    public static let jsonLimit = JSONLimits.default.maxBytes

    public func screen(_ request: HTTPRequest) -> (refusal: HTTPResponse?, bodyLimit: Int) {
        let limit = isUpload(request) ? EditorServer.uploadLimit : EditorServer.jsonLimit
        let host = request.header("host") ?? ""
        guard allowedHosts.contains(host.lowercased()) else {
            return (refuse(request, 403, "Host '\(host)' is not the address this server listens on (DNS rebinding is refused)"), limit)
        }
        guard hasToken(request) else {
            return (refuse(request, 403, "missing or wrong token: open the URL techo serve printed"), limit)
        }
        if request.isStateChanging, let origin = request.header("origin"), origin != "\(scheme)://\(host)" {
            return (refuse(request, 403, "Origin '\(origin)' may not change this journal"), limit)
        }
        guard ["GET", "HEAD", "POST", "PATCH", "DELETE"].contains(request.method) else {
            return (refuse(request, 405, "method \(request.method) is not used by this server"), limit)
        }
        return (nil, limit)
    }

    private func refuse(_ request: HTTPRequest, _ status: Int, _ message: String) -> HTTPResponse {
        log(request.method, request.path, status, message)
        return withCommonHeaders(.error(status, message))
    }

    public func malformed(method: String, target: String, status: Int, message: String) -> HTTPResponse {
        log(method, target, status, message)
        var r = withCommonHeaders(.error(status, message))
        r.headers.append(("Connection", "close"))
        return r
    }

    /// One log line for a request that failed; every field is escaped (`LogField`).
    func log(_ method: String, _ path: String, _ status: Int, _ message: String) {
        options.log("\(LogField.escape(method)) \(LogField.escape(path)): \(status) \(LogField.escape(message))")
    }

    /// The token from the query or the header, compared in constant time; for the editor's own
    /// files (not the API) the page cookie does too.
    func hasToken(_ request: HTTPRequest) -> Bool {
        let given = [request.query["token"], request.header("x-techo-token")]
        if given.contains(where: { $0.map { constantTimeEqual($0, options.token) } ?? false }) { return true }
        guard !request.path.hasPrefix("/api/"), let key = request.cookies[pageCookieName] else { return false }
        return constantTimeEqual(key, pageKey)
    }

    /// The page cookie's name: browsers send a cookie to every port of a host, so each server's
    /// has its own name and a server on another port never sees it as its own.
    var pageCookieName: String { "techo_page_\(port)" }

    func constantTimeEqual(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        guard x.count == y.count else { return false }
        var diff: UInt8 = 0
        for i in 0..<x.count { diff |= x[i] ^ y[i] }
        return diff == 0
    }

    /// Raw-byte uploads: a picture added to a page, a background image.
    func isUpload(_ request: HTTPRequest) -> Bool {
        guard request.method == "POST" else { return false }
        let parts = request.path.split(separator: "/", omittingEmptySubsequences: false)
        if parts.count == 5, parts[4] == "elements", request.query["type"] != nil { return true }
        if parts.count == 5, parts[4] == "background", request.query["image"] != nil { return true }
        return false
    }

    // MARK: Answering

    public func respond(to request: HTTPRequest) -> HTTPResponse {
        var response: HTTPResponse
        do {
            response = try route(request)
        } catch {
            let e = apiError(error)
            log(request.method, request.path, e.status, e.message)
            response = .error(e.status, e.message)
        }
        if request.query["token"] != nil {
            // The first load carries the token in the URL; the browser then fetches the page's
            // scripts and styles by itself, with the page cookie. The cookie is not the token (a
            // browser sends it to every server on this host, whatever the port), and opens
            // only the editor's files, which hold no journal data; the API wants the token.
            response.headers.append(("Set-Cookie", "\(pageCookieName)=\(pageKey); HttpOnly; SameSite=Strict; Path=/" + (options.tls == nil ? "" : "; Secure")))
        }
        if request.method == "HEAD", case .bytes = response.body { response.body = .bytes([]) }
        return withCommonHeaders(response)
    }

    func withCommonHeaders(_ r: HTTPResponse) -> HTTPResponse {
        var r = r
        // The token is in the first URL: never send it on as a Referer, and never be framed.
        r.headers += [("Referrer-Policy", "no-referrer"), ("X-Frame-Options", "DENY")]
        return r
    }

    func route(_ request: HTTPRequest) throws -> HTTPResponse {
        let path = request.path
        guard path.hasPrefix("/api/") else {
            guard request.method == "GET" || request.method == "HEAD" else {
                throw APIError(405, "\(request.method) \(path): the editor's files are read-only")
            }
            if let r = files.response(for: path) {
                // A browser has come for the editor: the sticker tray's atlas is drawn now, in the
                // background, so the tray's first open does not wait for it.
                if path == "/" { warmStickerAtlas() }
                return r
            }
            if files.isEmpty, path == "/" {
                throw APIError(404, "the editor's files were not found; start techo serve with --editor-dir FOLDER")
            }
            throw APIError(404, "no file \(path)")
        }
        let parts = path.dropFirst(5).split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        let m = request.method == "HEAD" ? "GET" : request.method
        switch (m, parts.count, parts.first ?? "") {
        case ("GET", 1, "journal"): return try journalInfo()
        case ("GET", 1, "events"): return eventStream()
        case ("POST", 1, "undo"): return try undo(redo: false)
        case ("POST", 1, "redo"): return try undo(redo: true)
        case ("POST", 1, "pages"): return try addPage(request)
        case ("GET", 3, "export") where parts[1] == "pages" && parts[2].hasSuffix(".png"):
            return try exportPage(String(parts[2].dropLast(4)), request)
        case ("GET", 2, "export") where parts[1] == "journal.pdf": return try exportJournal()
        case ("GET", 1, "stickers"): return try stickerList()
        case ("GET", 2, "stickers") where parts[1] == "atlas.png": return try stickerAtlasPicture(request)
        case ("GET", 3, "stickers"): return try stickerPicture(parts[1], parts[2], request)
        case ("GET", 3, "templates") where parts[2] == "thumbnail": return try templateThumbnail(parts[1], request)
        case (_, _, "pages") where parts.count >= 2:
            return try pageRoute(m, id: parts[1], rest: Array(parts.dropFirst(2)), request)
        default:
            let known = ["journal", "events", "undo", "redo", "pages", "export", "stickers"]
            if parts.count == 1, known.contains(parts[0]) { throw APIError(405, "\(request.method) is not allowed on \(path)") }
            throw APIError(404, "no API route \(path)")
        }
    }

    func pageRoute(_ m: String, id: String, rest: [String], _ request: HTTPRequest) throws -> HTTPResponse {
        switch (m, rest.count, rest.first ?? "") {
        case ("GET", 0, _): return try pageInfo(id)
        case ("DELETE", 0, _): return try changed { try PageEdits.removePage(id, from: store) }
        case ("GET", 1, "render"): return try renderPage(id, request)
        case ("GET", 1, "thumbnail"): return try thumbnail(id, request)
        case ("POST", 1, "gesture"): return try gesture(id, request)
        case ("POST", 1, "restack"): return try restackGroup(id, request)
        case ("POST", 1, "remove"): return try removeGroup(id, request)
        case ("POST", 1, "draw"): return try draw(id, request)
        case ("POST", 1, "elements"): return request.query["type"] != nil ? try upload(id, request) : try addElement(id, request)
        case ("POST", 1, "background"): return try background(id, request)
        case ("POST", 1, "stickers"): return try addSticker(id, request)
        case ("POST", 1, "copy"): return try copy(id, request)
        case ("POST", 1, "paste"): return try paste(id, request)
        case ("POST", 1, "clear"): return try clear(id, request)
        case ("POST", 1, "move"): return try movePage(id, request)
        case ("PATCH", 2, "elements"): return try setElement(id, rest[1], request)
        case ("DELETE", 2, "elements"): return try removeElement(id, rest[1])
        case ("POST", 3, "elements") where rest[2] == "flip": return try flip(id, rest[1], request)
        case ("POST", 3, "elements") where rest[2] == "restack": return try restack(id, rest[1], request)
        case ("GET", 3, "elements") where rest[2] == "render": return try renderElement(id, rest[1], request)
        case ("GET", 1, "strokes"): return try strokeList(id)
        case ("POST", 2, "strokes") where rest[1] == "erase": return try eraseStrokes(id, request)
        case ("POST", 2, "strokes") where rest[1] == "hit": return try hitStrokes(id, request)
        case ("PATCH", 2, "strokes"): return try setStroke(id, rest[1], request)
        case ("DELETE", 2, "strokes"): return try removeStroke(id, rest[1])
        case ("POST", 3, "strokes") where rest[2] == "gesture": return try strokeGesture(id, rest[1], request)
        case ("GET", 3, "strokes") where rest[2] == "render": return try renderStroke(id, rest[1], request)
        default:
            throw APIError(404, "no API route \(request.path) for \(request.method)")
        }
    }

    // MARK: Errors

    /// The HTTP answer to an error: the server's own refusals as they are; everything else is
    /// the editing layer's `EditError`, whose kind says the status (the one place it is decided).
    func apiError(_ error: Error) -> APIError {
        if let e = error as? APIError { return e }
        let e = EditError(from: error)
        return APIError(APIError.status(of: e.kind), e.message)
    }

    // MARK: The journal on disk

    /// The journal and its pages, re-read only when the files changed since the last read.
    func snapshot() throws -> (revision: UInt64, journal: Journal, pages: PageSet) {
        let before = JournalWatcher.fingerprint(of: store.url)
        snapshotLock.lock()
        if let s = snapshotCache, s.revision == before { snapshotLock.unlock(); return s }
        snapshotLock.unlock()
        let (journal, pages) = try store.read()
        let after = JournalWatcher.fingerprint(of: store.url)
        // Keep it only when nothing changed while it was read (else it might be the older state).
        if after == before {
            snapshotLock.lock(); snapshotCache = (after, journal, pages); snapshotLock.unlock()
        }
        return (before, journal, pages)
    }

    /// The history's steps at `revision` (a snapshot's), read again only when the files changed:
    /// the journal's answer lists them after every change, and reading them is a file per step.
    func history(at revision: UInt64) throws -> [HistoryEntry] {
        snapshotLock.lock()
        if let h = historyCache, h.revision == revision { snapshotLock.unlock(); return h.steps }
        snapshotLock.unlock()
        let steps = try store.history()
        if JournalWatcher.fingerprint(of: store.url) == revision {
            snapshotLock.lock(); historyCache = (revision, steps); snapshotLock.unlock()
        }
        return steps
    }

    func page(_ id: String, in s: (revision: UInt64, journal: Journal, pages: PageSet)) throws -> Page {
        try PageEdits.page(id, in: s.pages, journal: s.journal)
    }

    /// Runs a change and answers `{"revision": N}` plus `extra`; the new revision is published at once.
    func changed(_ extra: [String: JSONValue] = [:], _ body: () throws -> Void) throws -> HTTPResponse {
        try body()
        var o = extra
        o["revision"] = .number(Double(watcher.refresh()))
        return .json(200, .object(o))
    }
}

/// A number as messages and headers show it: whole numbers without a decimal point.
func numberText(_ v: Double) -> String {
    v == v.rounded() && abs(v) < 1e15 ? String(Int(v)) : String(v)
}
