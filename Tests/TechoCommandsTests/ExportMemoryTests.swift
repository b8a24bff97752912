// What an export holds while it runs: the pages in flight, not the pages done. Each page of the
// journal shows a photo and a text no other page shows; as each page is reported done, the
// renderer must hold no kept drawings (an export renders each page once), at most the pictures
// and text layouts of the pages still to render, and nothing once the export is over. Asserted
// on the renderer's caches, not on the process's memory, so the test is exact and not flaky.
import Foundation
import TechoModel
import TechoTestSupport
import Testing

@testable import TechoExport
@testable import TechoRender

@Suite struct ExportMemoryTests {
    static let pages = 6

    /// A journal of `pages` pages (A7-ish, well under the renderer's preview size), each with a
    /// distinct 120x90 JPEG drawn at its own size, a distinct text, and a sticker all share.
    func journal() throws -> Workspace {
        let ws = try Workspace()
        try ws.png("shared.png", 24, 16, rgba: (200, 40, 40, 255))
        #expect(try ws.run(["init", "j.techo", "--size", "300x400", "--dpi", "72", "--background", "#f6f0e4"]).code == 0)
        for n in 1...Self.pages {
            if n > 1 { #expect(try ws.run(["page", "add", "j.techo"]).code == 0) }
            try ws.jpeg("photo\(n).jpg", 120, 90, rgb: (UInt8(30 * n), 90, 200))
            #expect(try ws.run(["add", "photo", "j.techo", "p\(n)", "photo\(n).jpg", "--at", "150,150"]).code == 0)
            #expect(try ws.run(["add", "text", "j.techo", "p\(n)", "Day \(n)", "--size", "20", "--at", "150,320"]).code == 0)
            #expect(try ws.run(["add", "image", "j.techo", "p\(n)", "shared.png", "--at", "60,360"]).code == 0)
        }
        return ws
    }

    @Test func anExportHoldsThePagesInFlightNotThePagesDone() throws {
        let ws = try journal()
        let store = try JournalStore.open(ws.url("j.techo"))
        let (journal, pageSet) = try store.read()
        let pages = journal.pageOrder.compactMap { pageSet[$0] }
        #expect(pages.count == Self.pages)
        let outputs = Exporter.outputs(
            for: pages.enumerated().map { ($0.offset + 1, $0.element) }, total: pages.count, target: ws.url("out"), isFile: false, format: .png)
        try FileManager.default.createDirectory(at: ws.url("out"), withIntermediateDirectories: true)
        // One photo's pixels (decoded at its drawn size), and the shared sticker's.
        let photoBytes = 120 * 90 * 4, stickerBytes = 24 * 16 * 4
        for jobs in [1, 2] {
            let renderer = PageRenderer(assetURL: store.assetURL)
            var settings = ExportSettings()
            settings.jobs = jobs
            var seen: [(drawings: Int, pictures: Int, layouts: Int)] = []
            // Progress is reported under the exporter's lock as each page is done.
            _ = try Exporter.run(
                pages: pages, outputs: outputs, title: "t", settings: settings, renderer: renderer, showProgress: true,
                err: { line in
                    guard line.contains("exported") else { return }
                    seen.append((renderer.keptDrawingBytes, renderer.keptPictureBytes, renderer.keptLayoutCount))
                })
            #expect(seen.count == Self.pages, "jobs \(jobs): a progress line a page")
            for (n, s) in seen.enumerated() {
                #expect(s.drawings == 0, "jobs \(jobs), page \(n + 1) done: \(s.drawings) bytes of drawings kept")
                // The page just done and the pages in flight (at most `jobs`, one each) may
                // still hold theirs; a page done before them holds nothing.
                #expect(
                    s.pictures <= (jobs + 1) * photoBytes + stickerBytes,
                    "jobs \(jobs), page \(n + 1) done: \(s.pictures) bytes of pictures kept")
                #expect(s.layouts <= jobs + 1, "jobs \(jobs), page \(n + 1) done: \(s.layouts) text layouts kept")
            }
            #expect(renderer.keptDrawingBytes == 0 && renderer.keptPictureBytes == 0 && renderer.keptLayoutCount == 0, "jobs \(jobs): all let go")
            for url in outputs { #expect(FileManager.default.fileExists(atPath: url.path), "\(url.lastPathComponent) written") }
            let left = try FileManager.default.contentsOfDirectory(atPath: ws.url("out").path).filter { $0.hasPrefix(".") }
            #expect(left.isEmpty, "no temp files left: \(left)")
            try FileManager.default.removeItem(at: ws.url("out"))
            try FileManager.default.createDirectory(at: ws.url("out"), withIntermediateDirectories: true)
        }
    }
}
