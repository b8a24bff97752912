// GET /api/pages/ID/render?height=H (docs/editor-api.md): an endless page drawn as it will be
// once grown H page pixels tall, what the editor shows below its content; the same pixels as the
// page grown that tall by its content, and refused by name on a fixed page, below
// the page's height, with `without`, or as a bad number.
import Foundation
import TechoCodecs
import Testing

@testable import TechoModel

@Suite struct GrownRenderRouteTests {
    /// An endless page 300 px wide, its paper lines under a tiled picture, one stroke near the top.
    func served() throws -> (ServedJournal, URL) {
        let s = try ServedJournal(size: "300xauto")
        let png = s.dir.appendingPathComponent("tile.png")
        try Data(try ServedJournal.png(7, 5, rgba: (120, 80, 40, 255))).write(to: png)
        _ = try s.techo("background", s.journal.path, "p1", "--color", "#d8c3a0", "--image", png.path, "--opacity", "0.5", "--paper", "lines")
        _ = try s.techo("draw", s.journal.path, "p1", "--tool", "pencil", "--points", "20,20 200,40")
        return (s, png)
    }

    @Test func theRegionBelowIsThePageGrownThatTall() throws {
        let (s, _) = try served()
        func height() throws -> Int {
            let stored = try s.client.get("/api/pages/p1")
            guard case .number(let h)? = try json(stored)["height"] else { throw CocoaError(.coderReadCorrupt) }
            return Int(h)
        }
        let h0 = try height()
        // The page itself grown by content: an invisible stroke far below, then exported. (Its
        // ruling starts at the top margin, so rows drawn before the growth stay where they were.)
        _ = try s.techo("draw", s.journal.path, "p1", "--tool", "pencil", "--points", "150,383 151,383", "--opacity", "0")
        let grown = try height()
        #expect(grown > h0 + 100, "the page grew: \(h0) → \(grown)")
        let out = s.dir.appendingPathComponent("grown.png")
        _ = try s.techo("export", s.journal.path, "--page", "p1", "--scale", "2", "-o", out.path)
        _ = try s.techo("undo", s.journal.path)
        #expect(try height() == h0)
        let r = try s.client.get("/api/pages/p1/render?scale=2&height=\(grown)&region=0,\(h0),300,\(grown - h0)")
        #expect(r.status == 200, "\(r.text)")
        let rect = (r.header("X-Techo-Region") ?? "").split(separator: ",").compactMap { Int($0) }
        #expect(rect == [0, h0 * 2, 600, (grown - h0) * 2], "\(r.header("X-Techo-Region") ?? "none")")
        let whole = try ImageDecoder.decodeStraight([UInt8](try Data(contentsOf: out)), name: "grown.png").pixels
        let part = try ImageDecoder.decodeStraight(r.body, name: "region").pixels
        #expect(part.width == 600 && part.height == rect[3] && whole.height == grown * 2)
        var worst = 0
        for y in 0..<part.height {
            for x in 0..<part.width {
                let a = (y * part.width + x) * 4, b = ((y + rect[1]) * whole.width + x) * 4
                for c in 0..<4 { worst = max(worst, abs(Int(part.bytes[a + c]) - Int(whole.bytes[b + c]))) }
            }
        }
        #expect(worst <= 1, "the grown render's rows differ from the page grown by content by \(worst)")
    }

    @Test func aBadHeightIsRefusedByName() throws {
        let (s, _) = try served()
        _ = try s.techo("page", "add", s.journal.path, "--id", "fixed", "--size", "300x300")
        let cases: [(String, String)] = [
            ("/api/pages/p1/render?height=0", "height:"), ("/api/pages/p1/render?height=-5", "height:"),
            ("/api/pages/p1/render?height=nan", "height:"), ("/api/pages/p1/render?height=1e400", "height:"),
            ("/api/pages/p1/render?height=tall", "height:"), ("/api/pages/p1/render?height=1e9", "height:"),
            ("/api/pages/p1/render?height=10", "less than page p1's height"),
            ("/api/pages/p1/render?height=900&without=ink-1", "height:"),
            ("/api/pages/fixed/render?height=900", "not endless"),
        ]
        for (path, words) in cases {
            let r = try s.client.get(path)
            #expect(r.status == 400, "\(path): \(r.status) \(r.text)")
            #expect(r.text.contains(words), "\(path): \(r.text)")
        }
    }
}
