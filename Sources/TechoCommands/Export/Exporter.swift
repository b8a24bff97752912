// Renders pages and writes them as PNG, JPEG or one PDF, pages in parallel on every core.
// Every output is staged under a temp name and renamed into place only when all pages have
// succeeded, so a failed or interrupted export never leaves a partial file under a final name.
import Dispatch
import Foundation
import TechoCodecs
import TechoModel
import TechoRender

enum ExportFormat: String, CaseIterable {
    case png, jpeg, pdf

    var ext: String { self == .jpeg ? "jpg" : rawValue }

    /// The format an output file name implies, if any.
    static func implied(by path: String) -> ExportFormat? {
        switch (path as NSString).pathExtension.lowercased() {
        case "png": return .png
        case "jpg", "jpeg": return .jpeg
        case "pdf": return .pdf
        default: return nil
        }
    }
}

/// How pages are rendered and encoded.
struct ExportSettings {
    /// Render scale for a page (from --scale or --dpi). Default 1.
    var scale: (Page) -> Double = { _ in 1 }
    var format: ExportFormat = .png
    /// JPEG quality 1…100. Default 92.
    var quality = 92
    /// PNG zlib level 0…9. Default 6.
    var level = 6
}

enum Exporter {
    /// Where each page goes: `-o FILE` for one page (or a PDF), else `NN-PAGEID.ext` in a folder.
    static func outputs(for pages: [(position: Int, page: Page)], total: Int, target: URL, isFile: Bool, format: ExportFormat) -> [URL] {
        if isFile { return [target] }
        let digits = max(2, String(total).count)
        return pages.map { item in
            let n = String(item.position)
            return target.appendingPathComponent(String(repeating: "0", count: digits - n.count) + n + "-" + item.page.id + "." + format.ext)
        }
    }

    /// Renders and writes the pages; returns the files written. `progress` is told each page done.
    static func run(pages: [Page], outputs: [URL], title: String, settings: ExportSettings, renderer: PageRenderer,
                    io: CommandIO) throws -> [URL] {
        precondition(settings.format == .pdf ? outputs.count == 1 : outputs.count == pages.count, "one output per page")
        let lock = NSLock()
        var staged: [StagedFile?] = Array(repeating: nil, count: pages.count)
        var pdfPages: [PDFWriter.PageImage?] = Array(repeating: nil, count: pages.count)
        var errors: [(Int, Error)] = []
        var warnings: [String] = []
        var done = 0
        let showProgress = io.stderrIsTerminal && pages.count > 1
        DispatchQueue.concurrentPerform(iterations: pages.count) { i in
            lock.lock()
            let stop = !errors.isEmpty
            lock.unlock()
            if stop { return }
            do {
                let page = pages[i]
                let rendered = try renderer.render(page, scale: settings.scale(page))
                let name = "page \(page.id)"
                switch settings.format {
                case .png:
                    let bytes = try PNGEncoder.encode(rendered.pixmap, dpi: rendered.dpi, level: settings.level, name: name)
                    let s = try StagedFile.stage(bytes, as: outputs[i])
                    lock.lock(); staged[i] = s; lock.unlock()
                case .jpeg:
                    let bytes = try JPEGEncoder.encode(rendered.pixmap, quality: settings.quality, dpi: rendered.dpi, name: name)
                    let s = try StagedFile.stage(bytes, as: outputs[i])
                    lock.lock(); staged[i] = s; lock.unlock()
                case .pdf:
                    let img = try PDFWriter.pageImage(rendered.pixmap, dpi: rendered.dpi, name: name)
                    lock.lock(); pdfPages[i] = img; lock.unlock()
                }
                lock.lock()
                warnings += rendered.warnings.map { "page \(page.id): \($0)" }
                done += 1
                if showProgress { io.err("\rtecho: exported \(done)/\(pages.count) pages") }
                lock.unlock()
            } catch {
                lock.lock(); errors.append((i, error)); lock.unlock()
            }
        }
        if showProgress { io.err("\n") }
        if let (_, first) = errors.min(by: { $0.0 < $1.0 }) {
            StagedFile.discard(staged.compactMap { $0 })
            throw first
        }
        for w in warnings.sorted() { io.err("techo: warning: \(w)\n") }
        if settings.format == .pdf {
            let doc = PDFWriter.document(pdfPages.map { $0! }, title: title)
            let s = try StagedFile.stage(doc, as: outputs[0])
            try StagedFile.commit([s])
            return outputs
        }
        try StagedFile.commit(staged.map { $0! })
        return outputs
    }
}
