import Foundation
import TechoGeometry
import TechoTestSupport
import Testing

@testable import TechoRaster

/// Layers, erasers, clip masks, multiply, and the shadow blur.
@Suite struct CompositingTests {
    static let red = Color(r: 1, g: 0, b: 0)
    static let blue = Color(r: 0, g: 0, b: 1)

    @Test func eraserInALayerRevealsWhatIsBeneath() {
        var page = Pixmap(width: 64, height: 64)
        page.fill(r: 0, g: 0, b: 255, a: 255)
        var ink = Pixmap(width: 64, height: 64)
        ink.fill(.rect(Rect(x: 0, y: 0, width: 64, height: 64)), paint: Paint(color: Self.red))
        ink.stroke(
            .polyline([Point(0, 32), Point(64, 32)]), style: StrokeStyle(width: 10),
            paint: Paint(color: .black, blendMode: .destinationOut))
        #expect(ink.pixel(32, 32) == (0, 0, 0, 0))
        page.composite(ink, x: 0, y: 0)
        #expect(page.pixel(32, 32) == (0, 0, 255, 255))
        #expect(page.pixel(32, 10) == (255, 0, 0, 255))
        // The eraser's edge is anti-aliased: a pixel at the edge of the band mixes both.
        var edge = Pixmap(width: 64, height: 64)
        edge.fill(.rect(Rect(x: 0, y: 0, width: 64, height: 64)), paint: Paint(color: Self.red))
        edge.stroke(
            .polyline([Point(0, 32.5), Point(64, 32.5)]), style: StrokeStyle(width: 10, cap: .butt),
            paint: Paint(color: .black, blendMode: .destinationOut))
        #expect(abs(Int(edge.pixel(20, 27).a) - 128) <= 1)
    }

    @Test func clearModeClearsByCoverage() {
        var p = Pixmap(width: 8, height: 8)
        p.fill(r: 200, g: 100, b: 50, a: 255)
        p.fill(.rect(Rect(x: 2, y: 0, width: 2.5, height: 8)), paint: Paint(color: Self.blue, blendMode: .clear))
        #expect(p.pixel(2, 3) == (0, 0, 0, 0))
        #expect(p.pixel(4, 3) == (100, 50, 25, 127))
        #expect(p.pixel(6, 3) == (200, 100, 50, 255))
    }

    @Test func layerOpacityAppliesOnceSoOverlapsDoNotDarken() {
        // Two overlapping opaque squares in a layer composited at 50%: the overlap is as light
        // as the rest; drawn directly at 50% each, the overlap would be darker.
        var layer = Pixmap(width: 40, height: 40)
        layer.fill(.rect(Rect(x: 0, y: 0, width: 25, height: 25)), paint: Paint(color: .black))
        layer.fill(.rect(Rect(x: 15, y: 15, width: 25, height: 25)), paint: Paint(color: .black))
        var page = Pixmap(width: 40, height: 40)
        page.fill(r: 255, g: 255, b: 255, a: 255)
        page.composite(layer, x: 0, y: 0, opacity: 0.5)
        #expect(page.pixel(20, 20) == page.pixel(5, 5))
        #expect(page.pixel(5, 5) == (127, 127, 127, 255))
        var direct = Pixmap(width: 40, height: 40)
        direct.fill(r: 255, g: 255, b: 255, a: 255)
        let half = Paint(color: Color.black.withOpacity(0.5))
        direct.fill(.rect(Rect(x: 0, y: 0, width: 25, height: 25)), paint: half)
        direct.fill(.rect(Rect(x: 15, y: 15, width: 25, height: 25)), paint: half)
        #expect(direct.pixel(20, 20).r < direct.pixel(5, 5).r)
    }

    @Test func translucentStrokeCrossingItselfDoesNotDarken() {
        var p = Pixmap(width: 64, height: 64)
        let loop = Path.polyline([Point(10, 10), Point(54, 54), Point(54, 10), Point(10, 54)])
        p.stroke(loop, style: StrokeStyle(width: 8), paint: Paint(color: Self.red.withOpacity(0.5)))
        #expect(p.pixel(32, 32) == p.pixel(20, 20))
        #expect(p.pixel(32, 32).a == 128)
    }

    @Test func mirroredStrokesStayWhole() {
        // A mirroring transform turns every stroke piece negative; coverage must not cancel.
        let loop = Path.polyline([Point(10, 10), Point(54, 54), Point(54, 10), Point(10, 54)])
        var a = Pixmap(width: 64, height: 64), b = Pixmap(width: 64, height: 64)
        let paint = Paint(color: Self.red.withOpacity(0.5))
        a.stroke(loop, style: StrokeStyle(width: 8), paint: paint)
        b.stroke(loop, style: StrokeStyle(width: 8), paint: paint, transform: Transform.scale(-1, 1).concatenating(.translation(64, 0)))
        #expect(b.pixel(32, 32).a == 128 && b.pixel(43, 20).a == 128)
        for y in 0..<64 { for x in 0..<64 { #expect(a.pixel(x, y) == b.pixel(63 - x, y), "(\(x), \(y))") } }
    }

    @Test func compositeAtOffsetClipsToBothPixmaps() {
        var layer = Pixmap(width: 10, height: 10)
        layer.fill(r: 0, g: 255, b: 0, a: 255)
        var page = Pixmap(width: 16, height: 16)
        page.composite(layer, x: 12, y: -4)
        #expect(page.pixel(12, 0) == (0, 255, 0, 255))
        #expect(page.pixel(15, 5) == (0, 255, 0, 255))
        #expect(page.pixel(11, 0) == (0, 0, 0, 0))
        #expect(page.pixel(15, 6) == (0, 0, 0, 0))
        page.composite(layer, x: 1000, y: -1000)
        page.composite(layer, x: .max / 2, y: .min / 2)
        page.composite(layer, x: .max, y: .min)
        page.composite(layer, x: .min, y: .max)
        page.checkInvariants()
    }

    @Test func multiplyDarkensAndWhiteIsNeutral() {
        var p = Pixmap(width: 4, height: 1)
        p.fill(r: 200, g: 100, b: 50, a: 255)
        p.fill(.rect(Rect(x: 0, y: 0, width: 2, height: 1)), paint: Paint(color: .white, blendMode: .multiply))
        p.fill(.rect(Rect(x: 2, y: 0, width: 2, height: 1)), paint: Paint(color: Color(r: 1, g: 1, b: 0), blendMode: .multiply))
        #expect(p.pixel(0, 0) == (200, 100, 50, 255))
        #expect(p.pixel(3, 0) == (200, 100, 0, 255))
    }

    @Test func clipMaskLimitsAndScalesDrawing() {
        let mask = Mask(filling: .rect(Rect(x: 8, y: 8, width: 8.5, height: 8)), width: 32, height: 32)
        #expect(mask.bounds == IntRect(x0: 8, y0: 8, x1: 17, y1: 16))
        mask.checkInvariants()
        var p = Pixmap(width: 32, height: 32)
        p.fill(.rect(Rect(x: 0, y: 0, width: 32, height: 32)), paint: Paint(color: .black), clip: mask)
        #expect(p.pixel(10, 10) == (0, 0, 0, 255))
        #expect(abs(Int(p.pixel(16, 10).a) - 128) <= 1)
        #expect(p.pixel(4, 4).a == 0 && p.pixel(17, 10).a == 0 && p.pixel(10, 16).a == 0)
        var img = Pixmap(width: 32, height: 32)
        img.fill(r: 255, g: 255, b: 255, a: 255)
        var q = Pixmap(width: 32, height: 32)
        q.draw(img, transform: .translation(0.5, 0), clip: mask)
        #expect(q.pixel(10, 10).a == 255 && q.pixel(4, 4).a == 0)
        var r = Pixmap(width: 32, height: 32)
        r.draw(img, transform: .identity, clip: mask)
        #expect(r.pixel(10, 10).a == 255 && r.pixel(20, 20).a == 0)
        // Nested clips multiply.
        let circle = Mask(filling: .circle(center: Point(12, 12), radius: 3), width: 32, height: 32)
        let both = mask.intersection(circle)
        #expect(both.bounds == IntRect(x0: 9, y0: 9, x1: 15, y1: 15))
        #expect(both.coverage(12, 12) == 255 && both.coverage(16, 15) == 0 && both.coverage(7, 12) == 0)
        #expect(mask.intersection(Mask(filling: .rect(Rect(x: 30, y: 30, width: 2, height: 2)), width: 32, height: 32)).data == [0])
        // An empty clip path clips everything.
        let none = Mask(filling: Path(), width: 32, height: 32)
        var s = Pixmap(width: 32, height: 32)
        s.fill(.rect(Rect(x: 0, y: 0, width: 32, height: 32)), paint: Paint(color: .black), clip: none)
        #expect(s == Pixmap(width: 32, height: 32))
    }

    @Test func blurKeepsMassAndSpreadsLikeAGaussian() {
        var p = Pixmap(width: 101, height: 101)
        p.setPixel(50, 50, (255, 255, 255, 255))
        for y in 40..<60 { for x in 40..<60 where (x, y) != (50, 50) { p.setPixel(x, y, (0, 0, 0, 0)) } }
        var big = Pixmap(width: 101, height: 101)
        big.fill(.rect(Rect(x: 45, y: 45, width: 11, height: 11)), paint: Paint(color: .white))
        let sigma = 4.0
        let b = big.blurred(radius: sigma)
        b.checkInvariants()
        let mass = { (q: Pixmap) in stride(from: 3, to: q.data.count, by: 4).reduce(0.0) { $0 + Double(q.data[$1]) } }
        #expect(abs(mass(b) - mass(big)) / mass(big) < 0.01)
        // Variance grows by sigma² along each axis.
        func varianceX(_ q: Pixmap) -> Double {
            var m = 0.0, s = 0.0, w = 0.0
            for y in 0..<q.height { for x in 0..<q.width { let a = Double(q.pixel(x, y).a); w += a; m += a * Double(x) } }
            m /= w
            for y in 0..<q.height { for x in 0..<q.width { let a = Double(q.pixel(x, y).a); s += a * (Double(x) - m) * (Double(x) - m) } }
            return s / w
        }
        let dv = varianceX(b) - varianceX(big)
        #expect(abs(dv - sigma * sigma) < 0.15 * sigma * sigma, "variance grew by \(dv)")
        // Symmetric, smooth, and flat inside a large flat area.
        #expect(b.pixel(40, 50) == b.pixel(60, 50))
        var flat = Pixmap(width: 60, height: 60)
        flat.fill(r: 10, g: 20, b: 30, a: 40)
        #expect(flat.blurred(radius: 3).pixel(30, 30) == (10, 20, 30, 40))
        #expect(flat.blurred(radius: 0) == flat && flat.blurred(radius: .nan) == flat)
        _ = flat.blurred(radius: 1e9)
    }

    @Test func boxSizesMatchTheGaussianVariance() {
        for sigma in [0.5, 1.0, 2.5, 7.0, 30.0] {
            let r = Pixmap.boxSizes(sigma: sigma, passes: 3)
            let variance = r.reduce(0.0) {
                let w = Double(2 * $1 + 1); return $0 + (w * w - 1) / 12
            }
            #expect(abs(variance - sigma * sigma) <= max(0.5, 0.15 * sigma * sigma), "σ=\(sigma) boxes \(r)")
        }
    }
}
