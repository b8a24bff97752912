import Foundation
import TechoModel
import TechoRaster
import Testing

@testable import TechoRender

@Suite struct ImageTests {
    /// Probes the four quadrant centres of a 40 px quadrants image centred at (100, 100).
    func quadrantColours(_ p: Pixmap) -> [(Int, Int, Int)] {
        [(90, 90), (110, 90), (90, 110), (110, 110)].map {
            let v = px(p, $0.0, $0.1); return (v.r, v.g, v.b)
        }
    }

    @Test(arguments: [
        (0.0, false, [0, 1, 2, 3]), (90.0, false, [2, 0, 3, 1]), (180.0, false, [3, 2, 1, 0]),
        (0.0, true, [1, 0, 3, 2]), (-90.0, true, [0, 2, 1, 3]),
    ])
    func quadrantsLandWhereTheTransformPutsThem(rotation: Double, flip: Bool, order: [Int]) throws {
        let f = try RenderFixture()
        let asset = try f.addPNG(quadrants(40))
        let e = try imageElement("img", asset, 40, 40, at: Point(100, 100), rotation: rotation, flipH: flip)
        let p = try f.renderer().render(page(200, 200, [e])).pixmap
        let colours: [(Int, Int, Int)] = [(255, 0, 0), (0, 255, 0), (0, 0, 255), (255, 255, 0)]
        let got = quadrantColours(p)
        for i in 0..<4 {
            let want = colours[order[i]]
            #expect(near((got[i].0, got[i].1, got[i].2, 255), want), "quadrant \(i): \(got[i]) vs \(want)")
        }
        // Outside the image: the white page.
        #expect(near(px(p, 60, 60), (255, 255, 255), tol: 0))
    }

    @Test func scaledAndRotatedCornerLandsOnItsTransform() throws {
        let f = try RenderFixture()
        let asset = try f.addPNG(quadrants(40))
        // Scale 2 rotated 30°: the red quadrant's centre (−10, −10) maps through the placement.
        let e = try imageElement("img", asset, 40, 40, at: Point(150, 150), scale: 2, rotation: 30)
        let p = try f.renderer().render(page(300, 300, [e])).pixmap
        let q = e.transform.apply(Point(-10, -10))
        #expect(near(px(p, Int(q.x), Int(q.y)), (255, 0, 0)))
        let y = e.transform.apply(Point(10, 10))
        #expect(near(px(p, Int(y.x), Int(y.y)), (255, 255, 0)))
    }

    @Test func opacityHalvesCoverage() throws {
        let f = try RenderFixture()
        let asset = try f.addPNG(solid(20, 20, (0, 0, 0, 255)))
        let e = try imageElement("img", asset, 20, 20, at: Point(50, 50), opacity: 0.5)
        let p = try f.renderer().render(page(100, 100, [e])).pixmap
        #expect(abs(px(p, 50, 50).r - 128) <= 1)
    }

    @Test func renderScaleResamplesFromTheSource() throws {
        let f = try RenderFixture()
        let asset = try f.addPNG(quadrants(40))
        let e = try imageElement("img", asset, 40, 40, at: Point(50, 50))
        let r = try f.renderer().render(page(100, 100, [e]), scale: 3)
        #expect(r.pixmap.width == 300 && r.dpi == 216)
        #expect(near(px(r.pixmap, 120, 120), (255, 0, 0), tol: 0))
        #expect(near(px(r.pixmap, 180, 180), (255, 255, 0), tol: 0))
    }

    @Test func dieCutRingFollowsTheDiscAtTheOutlineWidth() throws {
        let f = try RenderFixture()
        // A 20 px radius blue disc with an 8 px red outline, on a white page.
        let asset = try f.addPNG(disc(60, radius: 20, (0, 0, 255)))
        let e = try imageElement(
            "sticker", asset, 60, 60, at: Point(100, 100), rotation: 33,
            outline: try Outline(width: 8, color: RGBA(r: 255, g: 0, b: 0)))
        let p = try f.renderer().render(page(200, 200, [e])).pixmap
        for angle in stride(from: 0.0, to: 360, by: 15) {
            let a = angle * .pi / 180
            func at(_ r: Double) -> (r: Int, g: Int, b: Int, a: Int) {
                px(p, Int((100 + r * cos(a)).rounded(.down)), Int((100 + r * sin(a)).rounded(.down)))
            }
            #expect(near(at(10), (0, 0, 255), tol: 2))
            #expect(near(at(24), (255, 0, 0), tol: 6), "ring missing at \(angle)°")
            #expect(near(at(31), (255, 255, 255), tol: 0), "ring too wide at \(angle)°")
        }
        // The edge is anti-aliased: some pixel on the way out is between red and white.
        var partial = 0
        for x in 126...131 where (px(p, x, 100).g > 10 && px(p, x, 100).g < 245) { partial += 1 }
        #expect(partial >= 1)
    }

    @Test func pinchAboutAFocalPointKeepsThatPixel() throws {
        let f = try RenderFixture()
        let asset = try f.addPNG(gradient(64, 64))
        let e = try imageElement("img", asset, 64, 64, at: Point(100, 100))
        var pinched = e
        pinched.placement = try e.placement.applying(.pinch(scale: 1.5, around: Point(110, 90)))
        let r = f.renderer()
        let before = try r.render(page(200, 200, [e])).pixmap
        let after = try r.render(page(200, 200, [pinched])).pixmap
        let a = px(before, 110, 90), b = px(after, 110, 90)
        #expect(abs(a.r - b.r) <= 3 && abs(a.g - b.g) <= 3)
        // Away from the focal point the picture did move.
        let c = px(before, 80, 120), d = px(after, 80, 120)
        #expect(abs(c.r - d.r) + abs(c.g - d.g) > 10)
    }

    @Test func slotClipCutsThePicture() throws {
        let f = try RenderFixture()
        let asset = try f.addPNG(solid(100, 100, (0, 0, 0, 255)))
        var e = try imageElement("img", asset, 100, 100, at: Point(100, 100))
        e.clip = try SlotFrame(rect: Rect(x: 80, y: 80, width: 40, height: 40))
        let p = try f.renderer().render(page(200, 200, [e])).pixmap
        #expect(near(px(p, 100, 100), (0, 0, 0), tol: 0))
        #expect(near(px(p, 70, 100), (255, 255, 255), tol: 0))
    }
}
