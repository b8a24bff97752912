// The editor's loop, in one process (on the journal the page section built): a long-lived PageRenderer re-renders the reference page at
// 1000 px tall after every change. Figures: the first (cold) render, a warm re-render of the
// unchanged page, and warm re-renders each after one sticker moved (alternately to two places,
// so every render sees a change), medians of wall time; and the warm full-page compose on one
// thread against two.
import Foundation
import TechoGeometry
import TechoModel
import TechoRender

func previewBench() {
    let journal = "bench-out/page/reference-1.techo"
    guard FileManager.default.fileExists(atPath: journal) else {
        print("  needs \(journal): run the page section first (make bench runs both)")
        return
    }
    do {
        let store = try JournalStore.open(URL(fileURLWithPath: journal))
        let (_, pages) = try store.read()
        guard var page = pages["p01"] else { print("  preview: no page p01"); return }
        let scale = 1000 / 2480.0
        let renderer = PageRenderer(assetURL: store.assetURL)
        func timed(_ body: () throws -> Void) rethrows -> Double {
            let t = DispatchTime.now().uptimeNanoseconds
            try body()
            return Double(DispatchTime.now().uptimeNanoseconds - t) / 1e6
        }
        var size = (0, 0)
        let cold = try timed {
            let r = try renderer.render(page, scale: scale); size = (r.pixmap.width, r.pixmap.height)
        }
        var unchanged: [Double] = [], moved: [Double] = []
        for _ in 0..<15 { unchanged.append(try timed { _ = try renderer.render(page, scale: scale) }) }
        guard let i = page.elements.firstIndex(where: { if case .image = $0.content { return true } else { return false } }) else { return }
        let home = page.elements[i].placement.center
        for k in 0..<15 {
            let p = page.elements[i].placement
            page.elements[i].placement = try Placement(
                center: Point(home.x + (k % 2 == 0 ? 60 : -60), home.y + 20), scale: p.scale,
                rotation: p.rotation, flipH: p.flipH, flipV: p.flipV)
            moved.append(try timed { _ = try renderer.render(page, scale: scale) })
        }
        let med = { (v: [Double]) in v.sorted()[v.count / 2] }
        print(
            String(
                format:
                    "  editor preview %dx%d (one renderer): cold %.0f ms; warm re-render %.1f ms unchanged, %.1f ms after a sticker moved (median of 15, min %.1f, max %.1f)",
                size.0, size.1, cold, med(unchanged), med(moved), moved.min()!, moved.max()!))
        // The full page, pictures already decoded: one compose thread against one per core.
        // On a busy machine the wall times say little, so also the page thread's own CPU time:
        // alone it does all the work; with workers, what stays on it (background and blends).
        var full: [Int: [Double]] = [:], pageThread: [Int: [Double]] = [:]
        let renderers = [1, 2].map { PageRenderer(assetURL: store.assetURL, composeThreads: $0) }
        for r in renderers { _ = try r.render(page) }
        for _ in 0..<5 {
            for (k, r) in renderers.enumerated() {
                let c0 = threadCPUMilliseconds()
                full[k + 1, default: []].append(try timed { _ = try r.render(page) })
                pageThread[k + 1, default: []].append(threadCPUMilliseconds() - c0)
            }
        }
        print(
            String(
                format: "  full page compose, pictures decoded (median of 5): 1 thread %.0f ms, 2 threads %.0f ms: %.2fx",
                med(full[1]!), med(full[2]!), med(full[1]!) / med(full[2]!)))
        print(
            String(
                format: "  page thread CPU: %.0f ms alone (all the work), %.0f ms with two workers (%.0f%% of the work stays on it)",
                med(pageThread[1]!), med(pageThread[2]!), 100 * med(pageThread[2]!) / med(pageThread[1]!)))
    } catch {
        print("  preview bench failed: \(error)")
    }
}

/// CPU time of the calling thread, milliseconds.
private func threadCPUMilliseconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
    return Double(ts.tv_sec) * 1000 + Double(ts.tv_nsec) / 1e6
}
