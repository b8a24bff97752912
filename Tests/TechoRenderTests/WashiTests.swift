import Foundation
import TechoModel
import TechoRaster
import Testing

@testable import TechoRender

@Suite struct WashiTests {
    func tape(
        _ id: String, ends: WashiContent.Ends = .torn, color: RGBA = RGBA(r: 240, g: 120, b: 120, a: 255),
        rotation: Double = 0
    ) throws -> Element {
        let w = try WashiContent(from: Point(-80, 0), to: Point(80, 0), width: 40, fill: .color(color), ends: ends)
        return try Element(id: id, content: .washi(w), placement: Placement(center: Point(100, 100), rotation: rotation))
    }

    @Test func tapeMultipliesOntoWhatIsBeneath() throws {
        let f = try RenderFixture()
        let asset = try f.addPNG(solid(40, 200, (100, 200, 250, 255)))
        let under = try imageElement("blue", asset, 40, 200, at: Point(150, 100))
        let p = try f.renderer().render(page(200, 200, [under, try tape("washi-1")])).pixmap
        #expect(near(px(p, 60, 100), (240, 120, 120), tol: 1))  // over white: its colour
        #expect(near(px(p, 150, 100), (100 * 240 / 255, 200 * 120 / 255, 250 * 120 / 255), tol: 2))  // over blue: the product
        #expect(near(px(p, 100, 70), (255, 255, 255), tol: 0))  // beside the strip
    }

    @Test func endsAreDeterministicPerIDAndDifferBetweenIDs() throws {
        let f = try RenderFixture()
        let r = f.renderer()
        for ends in WashiContent.Ends.allCases {
            let a = try r.render(page(200, 200, [try tape("washi-1", ends: ends)])).pixmap
            let again = try r.render(page(200, 200, [try tape("washi-1", ends: ends)])).pixmap
            let b = try r.render(page(200, 200, [try tape("washi-2", ends: ends)])).pixmap
            #expect(a == again)
            // The ends (x near 20 and 180) differ between strips.
            var differ = 0
            for y in 80..<120 { for x in 14..<34 where a.pixel(x, y) != b.pixel(x, y) { differ += 1 } }
            #expect(differ > 10, "\(ends) ends are the same for different ids")
            // The middle is the same plain colour in both.
            #expect(a.pixel(100, 100) == b.pixel(100, 100))
        }
    }

    @Test func tapeTurnsWithTheElement() throws {
        let f = try RenderFixture()
        let p = try f.renderer().render(page(200, 200, [try tape("washi-1", rotation: 90)])).pixmap
        #expect(near(px(p, 100, 40), (240, 120, 120), tol: 1))
        #expect(near(px(p, 40, 100), (255, 255, 255), tol: 0))
    }

    @Test func patternTapeRepeatsAlongTheStrip() throws {
        let f = try RenderFixture()
        // A 20x40 pattern: left half dark, right half light; the tape is 40 wide, so one repeat is 20 px.
        var pat = solid(20, 40, (250, 250, 250, 255))
        pat.fill(.rect(Rect(x: 0, y: 0, width: 10, height: 40)), paint: Paint(color: Color(r8: 60, g8: 60, b8: 160)))
        let asset = try f.addPNG(pat)
        let w = try WashiContent(from: Point(-80, 0), to: Point(80, 0), width: 40, fill: .pattern(asset))
        let e = try Element(id: "washi-3", content: .washi(w), placement: Placement(center: Point(100, 100)))
        let p = try f.renderer().render(page(200, 200, [e])).pixmap
        // Strip starts at x = 20: dark at 25, 45, 65 …; light at 35, 55 ….
        for k in 1..<6 {
            #expect(px(p, 25 + 20 * k, 100).r < 150)
            #expect(px(p, 35 + 20 * k, 100).r > 230)
        }
    }
}
