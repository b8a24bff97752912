// One page on every core. Each element's drawing (its layers with their shadows, outlines,
// glyphs and strokes, its decoded and adjusted pictures, its clip masks) is made from the element
// and the page geometry alone, never from the page's pixels, so the elements are made on any
// thread in any order; the page thread draws the background meanwhile, then applies the
// drawings to the page strictly in stacking order. Every pixel is computed by the same
// operations on the same inputs whatever the number of threads, so the page is byte-identical
// on one core or many (the tests compare 1 thread against several).
//
// Previews (renders of at most `PageRenderer.previewPixels` device pixels, as an editor makes
// on every change) also keep their background and element drawings, keyed by the element's
// whole value and the render geometry: a re-render after one element moved remakes only that
// element and re-applies the rest.

import Dispatch
import Foundation
import TechoModel
import TechoRaster

/// The drawings of one page's elements, made by worker threads and by the page thread. Work is
/// taken longest first (`order`: photos and ink before stickers and text), so the drawing that
/// takes longest does not start last while the others are done; the page thread, waiting for a
/// drawing another thread is making, makes the next one nobody has started instead of idling.
final class ComposeJobs: @unchecked Sendable {
    private let condition = NSCondition()
    private var results: [Result<ElementDrawing, Error>?]
    private var claimed: [Bool]
    private let order: [Int]
    private var next = 0
    private var stopped = false
    private let make: (Int) throws -> ElementDrawing
    private let group = DispatchGroup()
    /// Bytes of the drawings made and not yet applied; no drawing is started ahead of the page
    /// thread while they pass `budget`, so memory holds what is being applied and a budget's
    /// worth ahead, however the threads happen to interleave.
    private var held = 0
    private let budget: Int
    /// The most bytes of drawings held at once (for the tests).
    private(set) var mostHeld = 0

    /// `order`: the indices in the order work is taken (default: stacking order). `budget`:
    /// bytes of drawings made ahead of the page thread past which no more are started.
    init(count: Int, order: [Int]? = nil, budget: Int = .max, make: @escaping (Int) throws -> ElementDrawing) {
        results = Array(repeating: nil, count: count)
        claimed = Array(repeating: false, count: count)
        self.order = order ?? Array(0..<count)
        precondition(self.order.count == count, "one place in the order per element")
        self.budget = budget
        self.make = make
    }

    /// Starts `workers` threads that make drawings in `order` until none are left.
    func start(workers: Int) {
        for _ in 0..<max(0, min(workers, results.count)) {
            DispatchQueue.global().async(group: group) { [self] in
                while let i = claim() { store(i, Result { try make(i) }) }
            }
        }
    }

    /// The next element nobody has started, once the drawings held are within the budget; nil
    /// when all are taken or the render ended.
    private func claim() -> Int? {
        condition.lock()
        defer { condition.unlock() }
        while held > budget && !stopped { condition.wait() }
        return claimLocked()
    }

    /// `claim` with `condition` held.
    private func claimLocked() -> Int? {
        guard !stopped else { return nil }
        while next < order.count && claimed[order[next]] { next += 1 }
        guard next < order.count else { return nil }
        let i = order[next]
        claimed[i] = true
        next += 1
        return i
    }

    private func store(_ i: Int, _ r: Result<ElementDrawing, Error>) {
        condition.lock()
        storeLocked(i, r)
        condition.unlock()
    }

    /// `store` with `condition` held: the result kept, its bytes counted as held, waiters woken.
    private func storeLocked(_ i: Int, _ r: Result<ElementDrawing, Error>) {
        results[i] = r
        if case .success(let d) = r { held += d.bytes }
        mostHeld = max(mostHeld, held)
        condition.broadcast()
    }

    /// Element `i`'s drawing: made here if no thread has started it; while another thread makes
    /// it, this thread makes drawings nobody has started.
    func drawing(_ i: Int) throws -> ElementDrawing {
        condition.lock()
        if !claimed[i] {
            claimed[i] = true
            condition.unlock()
            // Nobody else waits for it: handed over, not stored, so its pixels go once applied
            // (stored, every drawing the page thread made would live until the page is done).
            return try make(i)
        }
        while results[i] == nil {
            if held <= budget, let j = claimLocked() {
                condition.unlock()
                let r = Result { try make(j) }
                condition.lock()
                storeLocked(j, r)
            } else {
                condition.wait()
            }
        }
        let r = results[i]!
        results[i] = nil  // applied once; let its pixels go
        if case .success(let d) = r { held -= d.bytes }
        condition.broadcast()
        condition.unlock()
        return try r.get()
    }

    /// Stops handing out work and waits for the threads still making a drawing.
    func finish() {
        condition.lock()
        stopped = true
        condition.unlock()
        group.wait()
    }
}

/// Background and element drawings of previews, least recently used dropped past `budget`.
final class PreviewCache: @unchecked Sendable {
    private struct Entry {
        var value: Any
        var bytes: Int
        var lastUse: UInt64
    }

    private let lock = NSLock()
    private var entries: [AnyHashable: Entry] = [:]
    private var clock: UInt64 = 0
    private var total = 0
    /// Bytes kept at most.
    let budget: Int

    init(budget: Int) { self.budget = budget }

    /// Bytes kept now.
    var bytes: Int {
        lock.lock()
        defer { lock.unlock() }
        return total
    }

    func value<T>(_ key: AnyHashable, as: T.Type) -> T? {
        lock.lock()
        defer { lock.unlock() }
        guard var e = entries[key], let v = e.value as? T else { return nil }
        clock += 1
        e.lastUse = clock
        entries[key] = e
        return v
    }

    func store(_ key: AnyHashable, _ value: Any, bytes: Int) {
        guard bytes <= budget / 4 else { return }
        lock.lock()
        defer { lock.unlock() }
        clock += 1
        if let old = entries[key] { total -= old.bytes }
        entries[key] = Entry(value: value, bytes: bytes, lastUse: clock)
        total += bytes
        guard total > budget else { return }
        for (k, e) in entries.sorted(by: { $0.value.lastUse < $1.value.lastUse }) where total > budget && k != key {
            total -= e.bytes
            entries[k] = nil
        }
    }
}

/// What an element's drawing depends on: the element's whole value and the render geometry.
struct ElementDrawingKey: Hashable {
    var element: Element
    var scale: Double
    var width: Int, height: Int
    var originX = 0, originY = 0
}

/// What a page's background depends on.
struct BackgroundKey: Hashable {
    var background: Background
    var scale: Double
    var width: Int, height: Int
    var originX = 0, originY = 0
}

extension PageRenderer {
    /// Composes `page` on `canvas`: the background on this thread while `threads` (default
    /// `composeThreads`) workers make element drawings (none with one thread: this thread makes them all), then
    /// the drawings in order. The page thread mostly waits and blends, so it does not count as
    /// one of the workers; it still takes an element no worker has started.
    func compose(_ page: Page, canvas: Canvas, keepDrawings: Bool = true, threads: Int? = nil) throws -> RenderedPage {
        let threads = threads ?? composeThreads
        let preview = keepDrawings && canvas.width * canvas.height <= PageRenderer.previewPixels
        let elements = page.elements.filter(\.drawsAnything)
        let jobs = ComposeJobs(count: elements.count, order: PageRenderer.workOrder(elements), budget: PageRenderer.aheadBudget) { [self] i in
            try drawing(of: elements[i], canvas: canvas, keep: preview)
        }
        jobs.start(workers: threads > 1 ? threads : 0)
        defer { jobs.finish() }
        var pixmap = try background(of: page, canvas: canvas, keep: preview)
        var warnings: [String] = []
        for i in elements.indices {
            let d = try jobs.drawing(i)
            d.apply(to: &pixmap)
            warnings += d.warnings
        }
        return RenderedPage(pixmap: pixmap, dpi: page.dpi * canvas.scale, warnings: warnings)
    }

    /// Bytes of element drawings made ahead of the page thread (made, not yet applied) past which
    /// no more are started: 24 MiB, an A5 page's full-page layer at 300 dpi and a little more.
    static let aheadBudget = 24 << 20

    /// The order element drawings are taken in: the ones that take longest first (photos, by
    /// their area on the page, then ink, then pictures, then text), stacking order among equals.
    /// Only when each starts changes: every drawing is the same whatever the order.
    static func workOrder(_ elements: [Element]) -> [Int] {
        func rank(_ e: Element) -> Int {
            switch e.content {
            case .photo: return 0
            case .ink: return 1
            case .image: return 2
            default: return 3
            }
        }
        return elements.indices.sorted { a, b in
            let ra = rank(elements[a]), rb = rank(elements[b])
            return ra != rb ? ra < rb : a < b
        }
    }

    /// The page pixmap with its background drawn (a copy of the kept one for a preview).
    private func background(of page: Page, canvas: Canvas, keep: Bool) throws -> Pixmap {
        let key = BackgroundKey(
            background: page.background, scale: canvas.scale, width: canvas.width, height: canvas.height, originX: canvas.originX, originY: canvas.originY)
        if keep, let p = previews.value(key, as: Pixmap.self) { return p }
        var pixmap = Pixmap(width: canvas.width, height: canvas.height)
        do { try drawBackground(page.background, canvas: canvas, into: &pixmap) } catch let e as RenderError { throw e } catch {
            throw RenderError(pageID: page.id, message: "background: \(error)")
        }
        if keep { previews.store(key, pixmap, bytes: pixmap.data.count) }
        return pixmap
    }

    /// One element's drawing, errors named with the page and element.
    func drawing(of e: Element, canvas: Canvas, keep: Bool) throws -> ElementDrawing {
        let key = ElementDrawingKey(
            element: e, scale: canvas.scale, width: canvas.width, height: canvas.height, originX: canvas.originX, originY: canvas.originY)
        if keep, let d = previews.value(key, as: ElementDrawing.self) { return d }
        var d = ElementDrawing()
        do {
            switch e.content {
            case .image(let image): try drawImage(image, element: e, canvas: canvas, into: &d)
            case .photo(let photo): try drawPhoto(photo, element: e, canvas: canvas, into: &d)
            case .text(let text): try drawText(text, element: e, canvas: canvas, into: &d)
            case .ink(let ink): try drawInk(ink, element: e, canvas: canvas, into: &d)
            case .washi(let washi): try drawWashi(washi, element: e, canvas: canvas, into: &d)
            }
        } catch let e as RenderError {
            throw e
        } catch {
            throw RenderError(pageID: canvas.page.id, elementID: e.id, message: "\(error)")
        }
        if keep { previews.store(key, d, bytes: d.bytes) }
        return d
    }
}
