// The routes that read: the journal's summary, a page with its elements' boxes, renders of a
// page or of one element alone, exports, and the event stream.
import Foundation
import TechoCodecs
import TechoEditing
import TechoExport
import TechoGeometry
import TechoModel
import TechoRender
import TechoText

/// The installed font families, for the editor's font menu.
enum FontFamilies {
    static func installed() -> [String] { FontCatalog.shared.families(matching: nil) }
}

extension EditorServer {
    func journalInfo() throws -> HTTPResponse {
        let s = try snapshot()
        let steps = try history(at: s.revision)
        var pages: [JSONValue] = []
        for id in s.journal.pageOrder {
            guard let p = s.pages[id] else { continue }
            let size = try renderer.resolvedSize(of: p)
            pages.append([
                "id": .string(id), "width": .number(size.width), "height": .number(size.height), "dpi": .number(p.dpi),
                "endless": .bool(p.size.width == nil || p.size.height == nil),
            ])
        }
        return .json(
            200,
            [
                "revision": .number(Double(s.revision)),
                "title": .string(s.journal.title),
                "pages": .array(pages),
                "canUndo": .bool(steps.contains { $0.isApplied }),
                "canRedo": .bool(steps.contains { !$0.isApplied }),
                "history": .array(steps.map { ["n": .number(Double($0.number)), "description": .string($0.description), "applied": .bool($0.isApplied)] }),
                "templates": .array(Templates.builtinNames().map(JSONValue.string)),
                "fonts": .array(fonts.map(JSONValue.string)),
            ])
    }

    func pageInfo(_ id: String) throws -> HTTPResponse {
        let s = try snapshot()
        let p = try page(id, in: s)
        let size = try renderer.resolvedSize(of: p)
        return .json(
            200,
            [
                "revision": .number(Double(s.revision)),
                "page": Self.pageAnswer(p),
                "width": .number(size.width), "height": .number(size.height),
                "elements": .array(try p.elements.map(summary)),
            ])
    }

    /// The page file's JSON as `GET /api/pages/ID` answers it: each ink layer's `strokes` is the
    /// number of its strokes, not the strokes (most of a page of handwriting's bytes: 1.4 MB of
    /// the crowded page's 1.46 MB answer, read again after every change; the editor draws
    /// techo's render of them).
    static func pageAnswer(_ p: Page) -> JSONValue {
        var shown = p
        var counts: [Int: Int] = [:]
        for (i, e) in p.elements.enumerated() {
            guard case .ink(let ink) = e.content else { continue }
            counts[i] = ink.strokes.count
            shown.elements[i].content = .ink(InkContent())
        }
        guard !counts.isEmpty, case .object(var o) = shown.json, case .array(var elements)? = o["elements"] else { return shown.json }
        for (i, n) in counts {
            guard case .object(var e) = elements[i] else { continue }
            e["strokes"] = .number(Double(n))
            elements[i] = .object(e)
        }
        o["elements"] = .array(elements)
        return .object(o)
    }

    /// An element's box: `transform` maps its own box (centre origin, `size`) to the page.
    func summary(_ e: Element) throws -> JSONValue {
        let drawn = try renderer.drawnBounds(of: e)
        var size: (Double, Double)
        var t = e.transform
        switch e.content {
        case .image(let i): size = (i.naturalWidth, i.naturalHeight)
        case .photo(let p): size = p.crop.map { ($0.width, $0.height) } ?? (p.image.naturalWidth, p.image.naturalHeight)
        case .text(let text): size = try renderer.naturalSize(of: text)
        case .washi:
            var alone = e
            alone.placement = .identity
            let r = try renderer.drawnBounds(of: alone)
            size = (r.width, r.height)
        case .ink:
            t = .identity
            size = drawn.isNull ? (0, 0) : (drawn.width, drawn.height)
        }
        let box = e.kind == .ink ? drawn : Rect(x: -size.0 / 2, y: -size.1 / 2, width: size.0, height: size.1).applying(t)
        func rect(_ r: Rect) -> JSONValue { r.isNull ? [0, 0, 0, 0] : [.number(r.x), .number(r.y), .number(r.width), .number(r.height)] }
        return [
            "id": .string(e.id), "type": .string(e.kind.rawValue),
            "transform": [.number(t.a), .number(t.b), .number(t.c), .number(t.d), .number(t.tx), .number(t.ty)],
            "size": [.number(size.0), .number(size.1)],
            "bounds": rect(box), "drawn": rect(drawn),
            "hidden": .bool(e.hidden), "locked": .bool(e.locked), "opacity": .number(e.opacity),
        ]
    }

    /// `scale` from the query: 0 < S ≤ 4, default 1.
    func renderScale(_ request: HTTPRequest) throws -> Double {
        guard let text = request.query["scale"] else { return 1 }
        guard let s = Double(text), s.isFinite, s > 0, s <= 4 else {
            throw EditError(.invalid, "scale: expected a number above 0 and at most 4, got '\(text)'")
        }
        return s
    }

    /// The most device pixels a region render may have, and its longest side.
    static let maxRegionPixels = 16 << 20
    static let maxRegionSide = 8192

    /// `region=x,y,w,h` from the query (page pixels, w and h above 0), as the device pixels at
    /// `scale` that cover it: whole pixels, outward. Nil without the parameter.
    func renderRegion(_ request: HTTPRequest, scale: Double) throws -> (x: Int, y: Int, width: Int, height: Int)? {
        guard let text = request.query["region"] else { return nil }
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard parts.count == 4, let x = parts[0], let y = parts[1], let w = parts[2], let h = parts[3],
            [x, y, w, h].allSatisfy({ $0.isFinite && abs($0) < 1e7 }), w > 0, h > 0
        else {
            throw EditError(.invalid, "region: expected x,y,w,h in page pixels with w and h above 0, got '\(text)'")
        }
        let x0 = (x * scale).rounded(.down), y0 = (y * scale).rounded(.down)
        let x1 = ((x + w) * scale).rounded(.up), y1 = ((y + h) * scale).rounded(.up)
        let dw = x1 - x0, dh = y1 - y0
        guard dw <= Double(Self.maxRegionSide), dh <= Double(Self.maxRegionSide), dw * dh <= Double(Self.maxRegionPixels) else {
            throw EditError(
                .invalid,
                "region: at scale \(numberText(scale)) it is \(Int(dw))x\(Int(dh)) px; the limit is \(Self.maxRegionSide) px a side and \(Self.maxRegionPixels) pixels"
            )
        }
        return (Int(x0), Int(y0), Int(dw), Int(dh))
    }

    func png(_ bytes: [UInt8], extra: [(String, String)] = []) -> HTTPResponse {
        HTTPResponse(status: 200, headers: [("Content-Type", "image/png"), ("Cache-Control", "no-cache")] + extra, body: .bytes(bytes))
    }

    func renderPage(_ id: String, _ request: HTTPRequest) throws -> HTTPResponse {
        let scale = try renderScale(request)
        // While a gesture lasts the editor draws the page without the element (`without=ID`), or
        // in two layers that keep the stack (`layer=below`: the background and what lies under
        // it; `layer=above`: what lies over it, on nothing), always at the whole page's size.
        let without = request.query["without"] ?? ""
        let layer = request.query["layer"] ?? ""
        guard ["", "below", "above"].contains(layer) else { throw EditError(.invalid, "layer: expected below or above, got '\(layer)'") }
        if !layer.isEmpty && without.isEmpty { throw EditError(.invalid, "layer: needs without=ID, the element the layers are cut at") }
        // `region=x,y,w,h` (page pixels): only that part, at the scale on screen (a zoomed view).
        let region = try renderRegion(request, scale: scale)
        // `height=H` (page pixels): an endless page as it will be once grown that tall, what the
        // editor shows below its content (its paper: colour, picture, ruling).
        var grown: Double?
        if let text = request.query["height"] {
            guard let h = Double(text), h.isFinite, h >= 1, h <= Double(PageRenderer.maxSide) * 100 else {
                throw EditError(.invalid, "height: expected page pixels from 1 to \(PageRenderer.maxSide * 100), got '\(text)'")
            }
            if !without.isEmpty { throw EditError(.invalid, "height: not with without=ID (the page grown is the page as it is)") }
            grown = h
        }
        let r = region.map { "\($0.x),\($0.y),\($0.width),\($0.height)" } ?? ""
        return try renderQueue.answer("page \(id) \(scale) \(without) \(layer) \(r) \(grown.map { String($0) } ?? "")") {
            try self.renderPageNow(id, scale: scale, without: without, layer: layer, region: region, grownTo: grown)
        }
    }

    /// The page as it is now (the render queue's job).
    func renderPageNow(
        _ id: String, scale: Double, without: String, layer: String, region: (x: Int, y: Int, width: Int, height: Int)? = nil,
        grownTo grown: Double? = nil
    ) throws -> HTTPResponse {
        let s = try snapshot()
        var p = try page(id, in: s)
        if let grown {
            // The page as it will be once its content reaches further down: the page fixed at that
            // height, drawn by the same rule (a tiled picture goes on from the origin, a fitted one
            // is fitted to the new height, the ruling's rows go on from the top margin).
            guard p.size.height == nil else { throw EditError(.invalid, "height: page \(id) is not endless (its height is fixed)") }
            let size = try renderer.resolvedSize(of: p)
            guard grown >= size.height else {
                throw EditError(.invalid, "height: \(numberText(grown)) is less than page \(id)'s height now, \(numberText(size.height))")
            }
            p.size = PageSize(fixing: p.size, width: size.width, height: grown)
        }
        if !without.isEmpty && layer.isEmpty && without.contains(",") {
            // A group in flight (`without=ID,ID,…`): the page without any of them, elements
            // and strokes alike.
            let ids = without.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            let size = try renderer.resolvedSize(of: p)
            do { try GroupEdits.without(ids, on: &p) } catch { throw EditError(error.kind, "without: \(error.message)") }
            p.size = PageSize(fixing: p.size, width: size.width, height: size.height)
        } else if !without.isEmpty {
            guard let i = p.index(of: without) else { throw EditError(.notFound, "without: no element '\(without)' on page \(id)") }
            let size = try renderer.resolvedSize(of: p)
            switch layer {
            case "below": p.elements = Array(p.elements[..<i])
            case "above":
                p.elements = Array(p.elements[(i + 1)...])
                p.background = Background(color: nil)
            default: p.elements.remove(at: i)
            }
            p.size = PageSize(fixing: p.size, width: size.width, height: size.height)
        }
        let full = try page(id, in: s)
        var hit = true
        var variant = without.isEmpty ? "" : "\(layer.isEmpty ? "without" : layer):" + without
        if let grown { variant += " height:\(numberText(grown))" }
        if let region { variant += " region:\(region.x),\(region.y),\(region.width),\(region.height)" }
        let entry = try renders.render(RenderCache.Key(page: full, scale: scale, variant: variant)) {
            hit = false
            var seconds = (render: 0.0, encode: 0.0)
            var headers: [(String, String)] = []
            let bytes: [UInt8]
            if let region {
                // The region clipped to the page, in device pixels: where the image goes.
                let size = try renderer.resolvedSize(of: p)
                let w = Int((size.width * scale).rounded()), h = Int((size.height * scale).rounded())
                let x0 = max(0, region.x), y0 = max(0, region.y)
                let x1 = min(w, region.x + region.width), y1 = min(h, region.y + region.height)
                guard x1 > x0, y1 > y0 else {
                    throw EditError(
                        .invalid,
                        "region: \(region.width)x\(region.height) px at \(region.x),\(region.y) is outside the page (\(w)x\(h) px at scale \(numberText(scale)))"
                    )
                }
                bytes = try PageBytes.png(of: p, scale: scale, region: region, renderer: renderer, seconds: &seconds)
                headers.append(("X-Techo-Region", "\(x0),\(y0),\(x1 - x0),\(y1 - y0)"))
            } else {
                bytes = try PageBytes.png(of: p, scale: scale, renderer: renderer, forScreen: true, seconds: &seconds)
            }
            return RenderCache.Entry(
                png: bytes,
                headers: headers + [("Server-Timing", String(format: "render;dur=%.2f, encode;dur=%.2f", seconds.render * 1000, seconds.encode * 1000))])
        }
        // Server-Timing (shown by browsers' developer tools) tells a fresh render from a cached one.
        let kept = entry.headers.filter { $0.0 != "Server-Timing" }
        return png(entry.png, extra: (hit ? kept + [("Server-Timing", "cache;desc=hit")] : entry.headers) + [("X-Techo-Revision", String(s.revision))])
    }

    /// The element alone, unrotated, at its own scale: the browser turns and moves it while a
    /// gesture lasts. `X-Techo-Sprite: x,y,w,h` is the rectangle the image covers, in page pixels
    /// relative to the element's centre before rotation (for ink: page coordinates).
    func renderElement(_ id: String, _ eid: String, _ request: HTTPRequest) throws -> HTTPResponse {
        let scale = try renderScale(request)
        return try renderQueue.answer("sprite \(id) \(eid) \(scale)") { try self.renderElementNow(id, eid, scale: scale) }
    }

    /// The element's sprite as it is now (the render queue's job).
    func renderElementNow(_ id: String, _ eid: String, scale: Double) throws -> HTTPResponse {
        let s = try snapshot()
        let p = try page(id, in: s)
        guard let i = p.index(of: eid) else { throw EditError(.notFound, "no element '\(eid)' on page \(id)") }
        let entry = try renders.render(RenderCache.Key(page: p, scale: scale, variant: "sprite:" + eid)) {
            var e = p.elements[i]
            e.clip = nil
            e.hidden = false
            let rect: Rect
            if e.kind == .ink {
                let size = try renderer.resolvedSize(of: p)
                rect = Rect(x: 0, y: 0, width: size.width, height: size.height)
            } else {
                let pl = e.placement
                e.placement = try Placement(center: .zero, scale: pl.scale, rotation: 0, flipH: pl.flipH, flipV: pl.flipV)
                let b = try renderer.drawnBounds(of: e)
                guard !b.isEmpty else { throw EditError(.notFound, "element '\(eid)' draws nothing") }
                rect = Rect(
                    x: b.x.rounded(.down), y: b.y.rounded(.down), width: (b.maxX.rounded(.up) - b.x.rounded(.down)),
                    height: (b.maxY.rounded(.up) - b.y.rounded(.down)))
                e.placement = try Placement(center: Point(-rect.x, -rect.y), scale: pl.scale, rotation: 0, flipH: pl.flipH, flipV: pl.flipV)
            }
            let alone = try Page(
                id: p.id, size: PageSize(width: rect.width, height: rect.height), dpi: p.dpi,
                background: Background(color: nil), elements: [e])
            var seconds = (render: 0.0, encode: 0.0)
            let bytes = try PageBytes.png(of: alone, scale: scale, renderer: renderer, forScreen: true, seconds: &seconds)
            let n = numberText
            return RenderCache.Entry(png: bytes, headers: [("X-Techo-Sprite", "\(n(rect.x)),\(n(rect.y)),\(n(rect.width)),\(n(rect.height))")])
        }
        return png(entry.png, extra: entry.headers + [("X-Techo-Revision", String(s.revision))])
    }

    func exportPage(_ id: String, _ request: HTTPRequest) throws -> HTTPResponse {
        let scale = try renderScale(request)
        return try renderQueue.answer("export \(id) \(scale)") { try self.exportPageNow(id, scale: scale) }
    }

    func exportPageNow(_ id: String, scale: Double) throws -> HTTPResponse {
        let s = try snapshot()
        let p = try page(id, in: s)
        // The file `techo export` writes, so cached apart from the editor's renders (compressed for speed).
        let entry = try renders.render(RenderCache.Key(page: p, scale: scale, variant: "export")) {
            RenderCache.Entry(png: try PageBytes.png(of: p, scale: scale, renderer: renderer), headers: [])
        }
        let position = (s.journal.pageOrder.firstIndex(of: id) ?? 0) + 1
        let digits = max(2, String(s.journal.pageOrder.count).count)
        let n = String(position)
        let name = String(repeating: "0", count: digits - n.count) + n + "-" + id + ".png"
        return png(entry.png, extra: [("Content-Disposition", "attachment; filename=\"\(name)\"")])
    }

    func exportJournal() throws -> HTTPResponse {
        try renderQueue.answer("journal.pdf") { try self.exportJournalNow() }
    }

    func exportJournalNow() throws -> HTTPResponse {
        let s = try snapshot()
        let pages = s.journal.pageOrder.compactMap { s.pages[$0] }
        let bytes = try PageBytes.vectorPDF(of: pages, title: s.journal.title, renderer: renderer)
        let base =
            s.journal.title.isEmpty ? "journal" : String(s.journal.title.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" ? $0 : "-" }.prefix(64))
        // The header value stays ASCII: a title in another script is named by its percent-encoding too.
        let ascii = String(base.unicodeScalars.map { $0.isASCII ? Character($0) : "-" })
        let encoded = base.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "journal"
        return HTTPResponse(
            status: 200,
            headers: [
                ("Content-Type", "application/pdf"), ("Cache-Control", "no-store"),
                ("Content-Disposition", "attachment; filename=\"\(ascii).pdf\"; filename*=UTF-8''\(encoded).pdf"),
            ],
            body: .bytes(bytes))
    }

    func eventStream() -> HTTPResponse {
        watcher.refresh()
        return HTTPResponse(
            status: 200, headers: [("Content-Type", "text/event-stream"), ("Cache-Control", "no-store"), ("X-Accel-Buffering", "no")],
            body: .events(EventStream(hub: watcher.hub, keepAlive: options.keepAlive)))
    }
}
