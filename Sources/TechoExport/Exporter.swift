// Renders pages and writes them as PNG, JPEG or one PDF, pages in parallel on every core.
// Every output is staged under a temp name and renamed into place only when all pages have
// succeeded, so a failed or interrupted export never leaves a partial file under a final name.
// A PNG or JPEG output that already holds the page's render key and is untouched is not rendered
// again (RenderKey, RenderStamp; docs/decisions/rebuild.md).
import Dispatch
import Foundation
import TechoCodecs
import TechoModel
import TechoRaster
import TechoRender

public enum ExportFormat: String, CaseIterable, Sendable {
    case png, jpeg, pdf

    public var ext: String { self == .jpeg ? "jpg" : rawValue }

    /// The format an output file name implies, if any.
    public static func implied(by path: String) -> ExportFormat? {
        switch (path as NSString).pathExtension.lowercased() {
        case "png": return .png
        case "jpg", "jpeg": return .jpeg
        case "pdf": return .pdf
        default: return nil
        }
    }
}

/// How pages are rendered and encoded.
public struct ExportSettings {
    /// Render scale for a page (from --scale or --dpi). Default 1.
    public var scale: (Page) -> Double = { _ in 1 }
    public var format: ExportFormat = .png
    /// JPEG quality 1…100. Default 92.
    public var quality = 92
    /// PNG compression level 0…9. Default 4: libdeflate's level 4 already compresses pages
    /// as well as zlib's 6, at about two thirds of level 6's time (docs/performance.md).
    public var level = 4
    /// Pages rendered at once. Default: one per core (`TECHO_JOBS` sets fewer; more than one
    /// per core would only hold more pages in memory, and the workers are at most one per core).
    public var jobs = Cores.available
    /// A PDF of page pictures (one image per page at the render scale, the PDF techo wrote
    /// before its vector PDF) instead of vectors (`--raster`). Default false.
    public var rasterPDF = false
    /// Bleed of the vector PDF, millimetres on every side (`--bleed`): the background reaches
    /// into it and each page gets a TrimBox at its own size. Default 0.
    public var bleed = 0.0
    /// Print each phase's time to stderr (`TECHO_TIMINGS=1`). Default false.
    public var timings = false
    /// Render every page, even one whose PNG or JPEG output is already the file this export
    /// would write (`--force`). Default false: such a page is left as it is
    /// (docs/decisions/rebuild.md).
    public var force = false

    /// The defaults, with `TECHO_JOBS=N` and `TECHO_TIMINGS=1` from the environment applied.
    public init() {}

    public static func fromEnvironment(_ env: [String: String] = ProcessInfo.processInfo.environment) -> ExportSettings {
        var s = ExportSettings()
        if let j = env["TECHO_JOBS"].flatMap({ Int($0) }), j > 0 { s.jobs = min(j, s.jobs) }
        s.timings = env["TECHO_TIMINGS"].map { !$0.isEmpty && $0 != "0" } ?? false
        return s
    }
}

/// Seconds since `start`.
private func seconds(since start: ContinuousClock.Instant) -> Double {
    let d = ContinuousClock.now - start
    return Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18
}

public enum Exporter {
    /// Where each page goes: `-o FILE` for one page (or a PDF), else `NN-PAGEID.ext` in a folder.
    public static func outputs(for pages: [(position: Int, page: Page)], total: Int, target: URL, isFile: Bool, format: ExportFormat) -> [URL] {
        if isFile { return [target] }
        let digits = max(2, String(total).count)
        return pages.map { item in
            let n = String(item.position)
            return target.appendingPathComponent(String(repeating: "0", count: digits - n.count) + n + "-" + item.page.id + "." + format.ext)
        }
    }

    /// Renders and writes the pages; returns the output files, in page order, those left
    /// unchanged included. Progress (when `showProgress`), timings and warnings go to `err`.
    /// Unless `settings.force`, a PNG or JPEG page whose output file is already what this
    /// export would write (its stamp holds the page's render key and the file's digest) is
    /// neither rendered nor written. `beforeCommit` runs once every page is staged and before any
    /// output file is put in place; if it throws, nothing is written and its error is thrown.
    ///
    /// `earlier` gives, for a page id, versions of the page from before it was edited, newest
    /// first (`techo build` gives the journal's page before the build; `techo export`, the page
    /// before each of its last history steps): a PNG page whose file is still what techo wrote
    /// for one of them is made from that file, its bands of rows no change reaches kept and the
    /// others rendered again (`BandPatch`); the file is the one a whole render writes. Asked only
    /// for a page whose file is not already the one this export would write.
    public static func run(
        pages: [Page], outputs: [URL], title: String, settings: ExportSettings, renderer: PageRenderer,
        earlier: (String) -> [Page] = { _ in [] },
        showProgress: Bool = false, err: (String) -> Void = { _ in }, beforeCommit: () throws -> Void = {}
    ) throws -> [URL] {
        precondition(settings.format == .pdf ? outputs.count == 1 : outputs.count == pages.count, "one output per page")
        let lock = NSLock()
        var staged: [StagedFile?] = Array(repeating: nil, count: pages.count)
        var pdfPages: [PDFWriter.PageImage?] = Array(repeating: nil, count: pages.count)
        var vectorPages: [VectorPage?] = Array(repeating: nil, count: pages.count)
        let vector = settings.format == .pdf && !settings.rasterPDF
        var errors: [(Int, Error)] = []
        var warnings: [String] = []
        var done = 0
        var unchanged = 0
        // Pages made from their previous file, and the bands they made again of all their bands.
        var patched = (pages: 0, redone: 0, bands: 0)
        var next = 0
        // Seconds per phase, summed over pages: render (decode included), encode, write.
        var phase = (render: 0.0, encode: 0.0, write: 0.0)
        let decodeBefore = DecodeClock.nanoseconds
        let started = ContinuousClock.now
        let showProgress = showProgress && pages.count > 1
        // How many pages not yet done show each asset and each text: the pictures and text
        // layouts no page still to render shows are dropped from the renderer's caches as their
        // last page is done, so memory holds the pages in flight, not the pages done.
        func texts(_ page: Page) -> Set<TextContent> {
            Set(page.elements.compactMap { if case .text(let t) = $0.content { return t } else { return nil } })
        }
        var pictureUsers: [AssetRef: Int] = [:], textUsers: [TextContent: Int] = [:]
        for page in pages {
            for a in page.assets { pictureUsers[a, default: 0] += 1 }
            for t in texts(page) { textUsers[t, default: 0] += 1 }
        }
        func pageDone(_ page: Page) {
            var pictures = Set<AssetRef>(), layouts = Set<TextContent>()
            lock.lock()
            for a in page.assets {
                pictureUsers[a, default: 1] -= 1
                if pictureUsers[a] == 0 { pictures.insert(a) }
            }
            for t in texts(page) {
                textUsers[t, default: 1] -= 1
                if textUsers[t] == 0 { layouts.insert(t) }
            }
            lock.unlock()
            renderer.forget(pictures: pictures, texts: layouts)
        }
        // A fixed pool of workers takes pages in order, so at most `jobs` pages are in memory.
        let workers = max(1, min(settings.jobs, pages.count))
        DispatchQueue.concurrentPerform(iterations: workers) { _ in
            while true {
                lock.lock()
                let stop = !errors.isEmpty || next >= pages.count
                let i = next
                next += 1
                lock.unlock()
                if stop { return }
                do {
                    let page = pages[i]
                    // The page's pictures and layouts go as soon as it is drawn, before its
                    // encode: an encode holds the page's pixels and its file, not its pictures.
                    var drawn = false
                    func released() {
                        if !drawn { pageDone(page) }
                        drawn = true
                    }
                    defer { released() }
                    if vector {
                        // Vector pages are drawn into one document afterwards, in order.
                        let t0 = ContinuousClock.now
                        let v = try renderer.vectorPage(page, rasterScale: settings.scale(page), bleed: settings.bleed / 25.4 * page.dpi)
                        lock.lock()
                        phase.render += seconds(since: t0)
                        vectorPages[i] = v
                        warnings += v.warnings.map { "page \(page.id): \($0)" }
                        done += 1
                        if showProgress { err("\rtecho: exported \(done)/\(pages.count) pages") }
                        lock.unlock()
                        continue
                    }
                    let scale = settings.scale(page)
                    // The one-file PDF is always written whole; PNG and JPEG pages carry a key.
                    let key = settings.format == .pdf ? [] : RenderKey.of(page, scale: scale, settings: settings, renderer: renderer)
                    // The existing file, read once: kept as it is when it holds this key, else
                    // perhaps patched from (it may hold the key of an earlier version).
                    let existing = settings.format == .pdf || settings.force ? nil : RenderStamp.stamped(outputs[i], format: settings.format)
                    if let existing, existing.key == LoadedObjects.hex(key) {
                        // What a killed export left for this file goes, as when it is written.
                        StagedFile.removeStaleTemps(of: outputs[i])
                        lock.lock()
                        unchanged += 1
                        done += 1
                        if showProgress { err("\rtecho: exported \(done)/\(pages.count) pages") }
                        lock.unlock()
                        continue
                    }
                    let threads = max(1, renderer.composeThreads / workers)
                    if settings.format == .png, let existing {
                        let t0 = ContinuousClock.now
                        if let patch = try BandPatch.png(
                            of: page, earlier: earlier(page.id), scale: scale, settings: settings, file: existing, renderer: renderer, threads: threads,
                            drawn: released)
                        {
                            let rendering = seconds(since: t0)
                            let t1 = ContinuousClock.now
                            let s = try StagedFile.stage(RenderStamp.stampPNG(patch.bytes, key: key), as: outputs[i])
                            lock.lock()
                            staged[i] = s
                            phase.render += rendering
                            phase.write += seconds(since: t1)
                            patched.pages += 1
                            patched.redone += patch.redone
                            patched.bands += patch.bands
                            warnings += patch.warnings.map { "page \(page.id): \($0)" }
                            done += 1
                            if showProgress { err("\rtecho: exported \(done)/\(pages.count) pages") }
                            lock.unlock()
                            continue
                        }
                    }
                    let t0 = ContinuousClock.now
                    // Each page is rendered once: nothing of it is kept for a next render. The
                    // pages rendered at once share the cores: with a page per core, each page is
                    // composed by its own thread alone, which is as fast and holds one element's
                    // drawing at a time instead of those of workers running ahead.
                    let rendered = try renderer.render(page, scale: scale, keepDrawings: false, threads: threads)
                    released()
                    let rendering = seconds(since: t0)
                    let t1 = ContinuousClock.now
                    var encoding = 0.0
                    let name = "page \(page.id)"
                    defer {
                        lock.lock()
                        phase.render += rendering
                        phase.encode += encoding
                        phase.write += max(0, seconds(since: t1) - encoding)
                        lock.unlock()
                    }
                    switch settings.format {
                    case .png:
                        let bytes = RenderStamp.stampPNG(
                            try PNGEncoder.encode(rendered.pixmap, dpi: rendered.dpi, level: settings.level, name: name), key: key)
                        encoding = seconds(since: t1)
                        let s = try StagedFile.stage(bytes, as: outputs[i])
                        lock.lock(); staged[i] = s; lock.unlock()
                    case .jpeg:
                        let bytes = RenderStamp.stampJPEG(
                            try JPEGEncoder.encode(rendered.pixmap, quality: settings.quality, dpi: rendered.dpi, name: name), key: key)
                        encoding = seconds(since: t1)
                        let s = try StagedFile.stage(bytes, as: outputs[i])
                        lock.lock(); staged[i] = s; lock.unlock()
                    case .pdf:
                        let img = try PDFWriter.pageImage(rendered.pixmap, dpi: rendered.dpi, name: name)
                        encoding = seconds(since: t1)
                        lock.lock(); pdfPages[i] = img; lock.unlock()
                    }
                    lock.lock()
                    warnings += rendered.warnings.map { "page \(page.id): \($0)" }
                    done += 1
                    if showProgress { err("\rtecho: exported \(done)/\(pages.count) pages") }
                    lock.unlock()
                } catch {
                    lock.lock(); errors.append((i, error)); lock.unlock()
                }
            }
        }
        if showProgress { err("\n") }
        if settings.timings {
            // Decode is summed over threads and overlaps render (a page's pictures decode on
            // other cores while it composes); render includes waiting for them. Phases are summed
            // over pages, so with several workers they may add up to more than the wall time.
            let decode = Double(DecodeClock.nanoseconds - decodeBefore) / 1e9
            err(
                String(
                    format: "techo: timings: pages %d, jobs %d, unchanged %d, wall %.4f s, render %.4f s, decode %.4f s, encode %.4f s, write %.4f s\n",
                    pages.count, workers, unchanged, seconds(since: started), phase.render, decode, phase.encode, phase.write))
            if patched.pages > 0 {
                // A patched page's render includes its encode (the bands made again).
                err("techo: timings: patched \(patched.pages) pages, \(patched.redone) of \(patched.bands) bands made again\n")
            }
        }
        if let (_, first) = errors.min(by: { $0.0 < $1.0 }) {
            StagedFile.discard(staged.compactMap { $0 })
            throw first
        }
        for w in warnings.sorted() { err("techo: warning: \(w)\n") }
        do { try beforeCommit() } catch {
            StagedFile.discard(staged.compactMap { $0 })
            throw error
        }
        if vector {
            let t = ContinuousClock.now
            let specs = zip(pages, vectorPages).map { VectorPDF.PageSpec(page: $1!, label: $0.id) }
            let doc = try VectorPDF.document(specs, title: title)
            if settings.timings { err(String(format: "techo: timings: PDF written in %.4f s\n", seconds(since: t))) }
            let s = try StagedFile.stage(doc, as: outputs[0])
            try StagedFile.commit([s])
            return outputs
        }
        if settings.format == .pdf {
            let doc = PDFWriter.document(pdfPages.map { $0! }, title: title)
            let s = try StagedFile.stage(doc, as: outputs[0])
            try StagedFile.commit([s])
            return outputs
        }
        try StagedFile.commit(staged.compactMap { $0 })
        return outputs
    }
}
