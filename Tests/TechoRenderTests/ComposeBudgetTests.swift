// The drawings made ahead of the page thread are bounded by the compose budget, whatever the
// threads' interleaving: a page of many large drawings holds the budget and the drawings in
// flight, not all of them, and every drawing is still handed over once, in order.
import Foundation
import TechoRaster
import Testing

@testable import TechoRender

@Suite struct ComposeBudgetTests {
    /// 24 drawings of 1 MiB each, made by two workers while the page thread applies them
    /// slowly, with a 4 MiB budget: at most the budget plus one drawing per thread is held.
    @Test func drawingsMadeAheadStayWithinTheBudget() throws {
        let mib = 1 << 20
        let jobs = ComposeJobs(count: 24, budget: 4 * mib) { i in
            var d = ElementDrawing()
            d.composite(Layer(x0: i, y0: 0, pixmap: Pixmap(width: 512, height: 512)), opacity: 1)
            return d
        }
        jobs.start(workers: 2)
        var seen: [Int] = []
        for i in 0..<24 {
            let d = try jobs.drawing(i)
            if case .layer(let l, _, _, _) = d.marks[0] { seen.append(l.x0) }
            usleep(2000)
        }
        jobs.finish()
        #expect(seen == Array(0..<24), "each drawing once, in order")
        #expect(jobs.mostHeld <= 4 * mib + 3 * mib, "held \(jobs.mostHeld / mib) MiB at once with a 4 MiB budget")
        #expect(jobs.mostHeld >= 4 * mib, "the workers ran ahead at all (\(jobs.mostHeld / mib) MiB)")
    }
}
