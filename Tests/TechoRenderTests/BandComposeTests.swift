// A page composed band by band (`render(_:scale:threads:bands:bandDone:)`, which an export uses
// to encode the top of a page while the rest is drawn): each band handed on is already what the
// whole render draws on those rows, and the finished page, its warnings and its errors are the
// whole render's, on any number of threads and with any bands.

import Foundation
import TechoModel
import TechoRaster
import Testing

@testable import TechoRender

@Suite struct BandComposeTests {
    /// Bands of `rows` rows (the last one shorter) over `height` rows.
    static func bands(_ rows: Int, height: Int) -> [Range<Int>] {
        stride(from: 0, to: height, by: rows).map { $0..<min(height, $0 + rows) }
    }

    /// Rows `r` of `p`, as bytes.
    static func rows(_ r: Range<Int>, of p: Pixmap) -> ArraySlice<UInt8> { p.data[(r.lowerBound * p.width * 4)..<(r.upperBound * p.width * 4)] }

    @Test(arguments: [(1.0, 1), (1.0, 3), (0.4, 2)])
    func eachBandHandedOnIsFinalAndThePageIsTheWholeRender(scale: Double, threads: Int) throws {
        let f = try RenderFixture()
        var pg = try busyPage(f)
        // Beside the busy page: an element off the page (reaches no row), a hidden one and a
        // translucent one.
        let sticker = try f.addPNG(disc(64, radius: 30, (200, 80, 60)))
        pg.elements.append(try imageElement("sticker-off-page", sticker, 64, 64, at: Point(360, 2000)))
        var hidden = try imageElement("sticker-hidden", sticker, 64, 64, at: Point(300, 500))
        hidden.hidden = true
        pg.elements.append(hidden)
        pg.elements.append(try imageElement("sticker-faint", sticker, 64, 64, at: Point(200, 300), scale: 2, rotation: 33, opacity: 0.4))
        let renderer = f.renderer(threads: threads)
        let whole = try renderer.render(pg, scale: scale, keepDrawings: false)
        #expect(whole.pixmap.data.contains { $0 != 0 })
        for rows in [7, 100, 301, whole.pixmap.height] {
            let bands = Self.bands(rows, height: whole.pixmap.height)
            var handed: [Int] = []
            let banded = try renderer.render(pg, scale: scale, threads: threads, bands: bands) { k, pixmap in
                handed.append(k)
                #expect(Self.rows(bands[k], of: pixmap) == Self.rows(bands[k], of: whole.pixmap), "band \(k) of \(bands.count) (\(rows) rows) was not final when handed on")
            }
            #expect(handed == Array(bands.indices))
            #expect(banded.pixmap == whole.pixmap, "bands of \(rows) rows at scale \(scale), \(threads) threads")
            #expect(banded.warnings == whole.warnings)
        }
    }

    /// With two elements that cannot be drawn, the first in stacking order is reported, as a
    /// whole render reports it, though the later one is in an earlier band.
    @Test func theFirstFailingElementInStackingOrderIsReported() throws {
        let f = try RenderFixture()
        var pg = try busyPage(f)
        let broken = try f.add(bytes: Array("not a picture".utf8), ext: "png")
        pg.elements.insert(try imageElement("sticker-broken", broken, 50, 50, at: Point(100, 900)), at: 3)
        pg.elements.append(try imageElement("sticker-broken-too", broken, 50, 50, at: Point(200, 40)))
        for threads in [1, 2] {
            let renderer = f.renderer(threads: threads)
            let bands = Self.bands(60, height: try renderer.deviceSize(of: pg, scale: 1).height)
            #expect {
                _ = try renderer.render(pg, scale: 1, threads: threads, bands: bands) { _, _ in }
            } throws: { error in
                "\(error)".contains("sticker-broken") && !"\(error)".contains("sticker-broken-too")
            }
        }
    }

    /// A drawing that changes rows its element's bounds do not reach ends the band render
    /// (the bands already handed on may lack it), and nothing is handed on past it.
    @Test func aDrawingOutsideItsToldRowsEndsTheBandRender() throws {
        let f = try RenderFixture()
        let pg = try busyPage(f)
        let renderer = f.renderer(threads: 1)
        let d = ElementDrawing(marks: [.layer(Layer(x0: 0, y0: 500, pixmap: Pixmap(width: 4, height: 4)), opacity: 1, blendMode: .sourceOver, clip: nil)])
        #expect(d.rows(height: 960) == 500..<504)
        #expect(d.rows(height: 502) == 500..<502)
        #expect(ElementDrawing().rows(height: 960) == nil)
        // The rule the band render checks drawings by, seen failing: every element told to reach
        // only the top 10 rows.
        let bands = Self.bands(100, height: try renderer.deviceSize(of: pg, scale: 1).height)
        var handed = 0
        #expect(throws: BandsUnreliable.self) {
            _ = try renderer.render(pg, scale: 1, threads: 1, bands: bands, reach: { _ in 0..<10 }) { _, _ in handed += 1 }
        }
        #expect(handed == 0)
    }
}
