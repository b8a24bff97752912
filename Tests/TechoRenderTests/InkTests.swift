import Foundation
import TechoModel
import TechoRaster
import Testing

@testable import TechoRender

@Suite struct InkTests {
    let red = RGBA(r: 220, g: 30, b: 30)
    let blue = RGBA(r: 20, g: 40, b: 200)

    @Test func eraserRevealsThePhotoBeneathAndLeavesItIntact() throws {
        let f = try RenderFixture()
        let asset = try f.addPNG(solid(100, 100, (220, 30, 30, 255)))
        let photo = try Element(
            id: "photo-1", content: .photo(PhotoContent(image: ImageContent(asset: asset, naturalWidth: 100, naturalHeight: 100))),
            placement: Placement(center: Point(100, 100)))
        let ink = try inkElement(
            "ink-1",
            [
                Stroke(tool: .pencil, color: blue, width: 12, points: points([(40, 100), (160, 100)])),
                Stroke(tool: .eraser, width: 20, points: points([(100, 80), (100, 120)])),
                Stroke(tool: .eraser, width: 20, points: points([(30, 100), (30, 100)])),
            ])
        let p = try f.renderer().render(page(200, 200, [photo, ink])).pixmap
        #expect(near(px(p, 100, 100), (220, 30, 30), tol: 2))  // erased: the photo shows
        #expect(near(px(p, 70, 100), (20, 40, 200), tol: 2))  // the pen stroke remains
        #expect(near(px(p, 100, 70), (220, 30, 30), tol: 2))  // photo intact under the eraser's reach
        #expect(near(px(p, 30, 100), (255, 255, 255), tol: 0))  // erasing over paper shows paper, never a colour
    }

    @Test func inkLayersAreIndependent() throws {
        let f = try RenderFixture()
        let first = try inkElement("ink-1", [Stroke(tool: .line, color: red, width: 10, from: Point(20, 50), to: Point(180, 50))])
        let second = try inkElement(
            "ink-2",
            [
                Stroke(tool: .line, color: blue, width: 10, from: Point(20, 150), to: Point(180, 150)),
                Stroke(tool: .eraser, width: 30, points: points([(100, 20), (100, 180)])),
            ])
        let p = try f.renderer().render(page(200, 200, [first, second])).pixmap
        #expect(near(px(p, 100, 50), (220, 30, 30), tol: 1))  // the other layer's ink survives
        #expect(near(px(p, 100, 150), (255, 255, 255), tol: 0))  // its own is gone
        #expect(near(px(p, 50, 150), (20, 40, 200), tol: 1))
    }

    @Test func highlighterMultipliesAndNeverDarkensItself() throws {
        let f = try RenderFixture()
        let asset = try f.addPNG(solid(50, 200, (90, 140, 230, 255)))
        let under = try imageElement("blue", asset, 50, 200, at: Point(175, 100))
        let yellow = RGBA(r: 255, g: 235, b: 60)
        // A zigzag that crosses itself over the white paper and runs onto the blue image.
        let ink = try inkElement(
            "ink-1",
            [
                Stroke(
                    tool: .highlighter, color: yellow, width: 16,
                    points: points([(20, 40), (185, 160), (185, 40), (20, 160)]))
            ])
        let p = try f.renderer().render(page(200, 200, [under, ink])).pixmap
        // Over white: the marker's own colour, and nowhere darker, not even where it crosses.
        var full = 0
        for y in 0..<200 {
            for x in 0..<145 {
                let v = px(p, x, y)
                #expect(v.r >= 254 && v.g >= 234 && v.b >= 59, "darker at (\(x), \(y)): \(v)")
                if near(v, (255, 235, 60), tol: 1) { full += 1 }
            }
        }
        #expect(full > 500)
        // Over blue: the product, a dark green, and never darker than it.
        let product = (90, 140 * 235 / 255, 230 * 60 / 255)
        var onBlue = 0
        for y in 0..<200 {
            for x in 155..<200 {
                let v = px(p, x, y)
                #expect(v.g >= product.1 - 2 && v.b >= product.2 - 2)
                if near(v, product, tol: 3) { onBlue += 1 }
            }
        }
        #expect(onBlue > 100)
        #expect(product.1 > product.0 && product.1 > product.2)
    }

    @Test func translucentStrokeIsNotDarkerWhereItOverlapsItself() throws {
        let f = try RenderFixture()
        let ink = try inkElement(
            "ink-1",
            [
                Stroke(
                    tool: .pencil, color: .black, width: 14, opacity: 0.5,
                    points: points([(20, 20), (180, 180), (180, 20), (20, 180)]))
            ])
        let p = try f.renderer().render(page(200, 200, [ink])).pixmap
        var half = 0, darkest = 255
        for y in 0..<200 {
            for x in 0..<200 {
                let r = px(p, x, y).r
                darkest = min(darkest, r)
                if abs(r - 128) <= 1 { half += 1 }
            }
        }
        #expect(darkest >= 127)
        #expect(half > 1000)
    }

    @Test func pressureVariesThePencilWidth() throws {
        let f = try RenderFixture()
        let s = try Stroke(
            tool: .pencil, color: .black, width: 20,
            points: [StrokePoint(20, 100, pressure: 0), StrokePoint(100, 100, pressure: 0.5), StrokePoint(180, 100, pressure: 1)])
        let p = try f.renderer().render(page(200, 200, [try inkElement("ink-1", [s])])).pixmap
        func thickness(_ x: Int) -> Int { (80..<120).filter { px(p, x, $0).r < 128 }.count }
        #expect(thickness(30) < thickness(100) && thickness(100) < thickness(170))
        #expect(abs(thickness(170) - 20) <= 2)
    }

    @Test func shapesDashesAndPaths() throws {
        let f = try RenderFixture()
        let ink = try inkElement(
            "ink-1",
            [
                Stroke(tool: .rect, color: .black, width: 4, from: Point(20, 20), to: Point(80, 60), fill: RGBA(r: 0, g: 200, b: 0)),
                Stroke(tool: .dash, color: .black, width: 4, from: Point(20, 100), to: Point(180, 100), cap: .butt),
                Stroke(tool: .ellipse, color: blue, width: 2, from: Point(120, 20), to: Point(180, 60)),
                Stroke(tool: .path, color: .black, width: 2, d: "M20 140 h40 v40 h-40 z", fill: red),
            ])
        let p = try f.renderer().render(page(200, 200, [ink])).pixmap
        #expect(near(px(p, 50, 40), (0, 200, 0), tol: 0))  // rect fill
        #expect(near(px(p, 20, 40), (0, 0, 0), tol: 0))  // rect edge
        // Dash [12, 12] from x = 20: on at 21…31, off at 33…43.
        #expect(near(px(p, 26, 100), (0, 0, 0), tol: 0))
        #expect(near(px(p, 38, 100), (255, 255, 255), tol: 0))
        #expect(near(px(p, 150, 20), (20, 40, 200), tol: 40))  // ellipse top
        #expect(near(px(p, 150, 40), (255, 255, 255), tol: 0))  // unfilled ellipse
        #expect(near(px(p, 40, 160), (220, 30, 30), tol: 0))  // path fill
    }

    @Test func badPathDataNamesTheElementAndStroke() throws {
        let f = try RenderFixture()
        let ink = try inkElement("ink-7", [Stroke(tool: .path, color: .black, width: 2, d: "M 10 10 L oops")])
        #expect {
            _ = try f.renderer().render(page(100, 100, [ink]))
        } throws: { error in
            "\(error)".hasPrefix("page p1, element ink-7: strokes[0]: d: expected")
        }
    }
}
