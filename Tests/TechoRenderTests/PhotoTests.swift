import Foundation
import TechoModel
import TechoRaster
import Testing

@testable import TechoRender

@Suite struct PhotoTests {
    func photoElement(
        _ asset: AssetRef, _ w: Double, _ h: Double, at c: Point, rotation: Double = 0,
        _ configure: (inout PhotoContent) -> Void
    ) throws -> Element {
        var p = PhotoContent(image: try ImageContent(asset: asset, naturalWidth: w, naturalHeight: h))
        configure(&p)
        try p.validate()
        return try Element(id: "photo-1", content: .photo(p), placement: Placement(center: c, rotation: rotation))
    }

    let grey = Background(color: RGBA(r: 128, g: 128, b: 128))

    @Test func borderFrameIsAnEvenWhiteMargin() throws {
        let f = try RenderFixture()
        let asset = try f.addJPEG(solid(100, 100, (20, 60, 20, 255)))
        let e = try photoElement(asset, 100, 100, at: Point(150, 150)) { $0.frame = .border }
        let p = try f.renderer().render(page(300, 300, background: grey, [e])).pixmap
        // Margin 4.5 px: the card shows at 1.5 px beyond each side of the picture.
        for (x, y) in [(150, 98), (150, 201), (98, 150), (201, 150)] {
            let v = px(p, x, y)
            #expect(v.r > 245 && v.g > 245 && v.b > 240, "(\(x), \(y)) is \(v)")
        }
        #expect(near(px(p, 150, 150), (20, 60, 20), tol: 4))
        #expect(near(px(p, 150, 90), (128, 128, 128), tol: 0))
    }

    @Test func polaroidHasADeepChinAndWarmWhite() throws {
        let f = try RenderFixture()
        let asset = try f.addJPEG(solid(100, 100, (20, 60, 20, 255)))
        let e = try photoElement(asset, 100, 100, at: Point(150, 130)) { $0.frame = .polaroid }
        let p = try f.renderer().render(page(300, 300, background: grey, [e])).pixmap
        // Sides 6.5 px, chin 27 px below the picture (which ends at y = 180).
        let chin = px(p, 150, 200)
        #expect(chin.r > 240 && chin.r >= chin.b + 4, "warm white chin: \(chin)")
        #expect(px(p, 150, 176).g < 80)  // picture
        #expect(near(px(p, 150, 212), (128, 128, 128), tol: 0))  // below the card
        #expect(px(p, 150, 76).r > 240)  // top margin
        #expect(near(px(p, 150, 70), (128, 128, 128), tol: 0))
    }

    @Test func shadowIsDarkerBelowRightThanAboveLeft() throws {
        let f = try RenderFixture()
        let asset = try f.addJPEG(solid(100, 100, (200, 200, 200, 255)))
        let e = try photoElement(asset, 100, 100, at: Point(150, 150), rotation: 10) { $0.shadow = true }
        let p = try f.renderer().render(page(300, 300, [e])).pixmap
        // Just outside the edges, in the photo's turned frame.
        for (out, opposite) in [(Point(0, 52), Point(0, -52)), (Point(52, 0), Point(-52, 0))] {
            let a = e.transform.apply(out), b = e.transform.apply(opposite)
            let below = px(p, Int(a.x), Int(a.y)), above = px(p, Int(b.x), Int(b.y))
            #expect(below.r < 235, "shadow below-right: \(below)")
            #expect(above.r > below.r + 10)
        }
        #expect(near(px(p, 150, 150), (200, 200, 200), tol: 3))
    }

    @Test func roundedCornersClipThePicture() throws {
        let f = try RenderFixture()
        let asset = try f.addJPEG(solid(100, 100, (0, 0, 0, 255)))
        let e = try photoElement(asset, 100, 100, at: Point(100, 100)) { $0.radius = 20 }
        let p = try f.renderer().render(page(200, 200, [e])).pixmap
        #expect(near(px(p, 51, 51), (255, 255, 255), tol: 0))  // the corner is cut
        #expect(near(px(p, 51, 100), (0, 0, 0), tol: 2))  // the edge is not
    }

    @Test func cropShowsOnlyThePart() throws {
        let f = try RenderFixture()
        let asset = try f.addPNG(quadrants(100))
        let e = try photoElement(asset, 100, 100, at: Point(100, 100)) { $0.crop = Rect(x: 50, y: 50, width: 50, height: 50) }
        let p = try f.renderer().render(page(200, 200, [e])).pixmap
        #expect(near(px(p, 80, 80), (255, 255, 0), tol: 0))
        #expect(near(px(p, 120, 120), (255, 255, 0), tol: 0))
        #expect(near(px(p, 70, 100), (255, 255, 255), tol: 0))
    }

    @Test func adjustmentsApplyToThePictureOnly() throws {
        let f = try RenderFixture()
        let asset = try f.addPNG(solid(60, 60, (200, 80, 40, 255)))
        let e = try photoElement(asset, 60, 60, at: Point(50, 50)) {
            $0.grayscale = 1; $0.frame = .border
        }
        let p = try f.renderer().render(page(100, 100, [e])).pixmap
        let v = px(p, 50, 50)
        #expect(v.r == v.g && v.g == v.b)
        #expect(px(p, 50, 18).r > 245)  // the white card is untouched
    }
}

@Suite struct AdjustmentTests {
    func photo(_ configure: (inout PhotoContent) -> Void) throws -> PhotoContent {
        let asset = try AssetRef(sha256: String(repeating: "a", count: 64), ext: "png")
        var p = PhotoContent(image: try ImageContent(asset: asset, naturalWidth: 1, naturalHeight: 1))
        configure(&p)
        return p
    }

    /// Every 8-bit level of each channel in a few mixes, plus translucent pixels.
    func sample() -> Pixmap {
        var p = Pixmap(width: 256, height: 4)
        for x in 0..<256 {
            let v = UInt8(x)
            p.setPixel(x, 0, (v, 255 - v, v / 2, 255))
            p.setPixel(x, 1, (v, v, v, 255))
            p.setPixel(x, 2, (255 - v, v / 3, v, 255))
            p.setPixel(x, 3, (premultiply(v, 128), premultiply(200, 128), premultiply(30, 128), 128))
        }
        return p
    }

    @Test func zeroAdjustmentsAreTheIdentityByteForByte() throws {
        let a = PhotoAdjustments(try photo { _ in })
        #expect(a.isIdentity)
        let s = sample()
        #expect(a.applied(to: s) == s)
    }

    @Test func grayscaleOneGivesEqualChannels() throws {
        let out = PhotoAdjustments(try photo { $0.grayscale = 1 }).applied(to: sample())
        for y in 0..<4 {
            for x in 0..<256 {
                let v = out.pixel(x, y)
                #expect(v.r == v.g && v.g == v.b)
            }
        }
        // Rec. 709 luma of pure red is 0.2126.
        let red = PhotoAdjustments(try photo { $0.grayscale = 1 }).apply((1, 0, 0))
        #expect(abs(red.0 - 0.2126) < 1e-4)
    }

    @Test(arguments: [0.25, 0.5, 1.0])
    func sepiaMatchesTheCSSMatrix(amount: Double) throws {
        let a = PhotoAdjustments(try photo { $0.sepia = amount })
        let k = 1 - amount
        // The Filter Effects 1 sepia matrix, written out independently.
        let m: [[Double]] = [
            [0.393 + 0.607 * k, 0.769 - 0.769 * k, 0.189 - 0.189 * k],
            [0.349 - 0.349 * k, 0.686 + 0.314 * k, 0.168 - 0.168 * k],
            [0.272 - 0.272 * k, 0.534 - 0.534 * k, 0.131 + 0.869 * k],
        ]
        let s = sample(), out = a.applied(to: s)
        for x in stride(from: 0, to: 256, by: 5) {
            let i = s.pixel(x, 0), o = out.pixel(x, 0)
            let c = [Double(i.r), Double(i.g), Double(i.b)].map { $0 / 255 }
            let want = m.map { row in Int((min(1, row[0] * c[0] + row[1] * c[1] + row[2] * c[2]) * 255).rounded()) }
            #expect(abs(Int(o.r) - want[0]) <= 1 && abs(Int(o.g) - want[1]) <= 1 && abs(Int(o.b) - want[2]) <= 1)
        }
    }

    @Test(arguments: [-0.6, -0.2, 0.3, 0.8])
    func brightnessAndContrastAreMonotone(amount: Double) throws {
        let grey = sample()
        for kp in [\PhotoContent.brightness, \PhotoContent.contrast] {
            let out = PhotoAdjustments(try photo { $0[keyPath: kp] = amount }).applied(to: grey)
            for x in 1..<256 { #expect(out.pixel(x, 1).r >= out.pixel(x - 1, 1).r) }
            // Brightness up lightens; contrast up spreads values away from mid-grey.
            let dark = Int(out.pixel(40, 1).r), light = Int(out.pixel(215, 1).r)
            if kp == \PhotoContent.brightness {
                #expect(amount > 0 ? dark >= 40 : dark <= 40)
            } else {
                #expect(amount > 0 ? (dark <= 40 && light >= 215) : (dark >= 40 && light <= 215))
            }
        }
    }

    @Test func alphaIsKeptAndStaysPremultiplied() throws {
        let out = PhotoAdjustments(
            try photo {
                $0.warmth = 1; $0.fade = 1; $0.saturation = 0.5
            }
        ).applied(to: sample())
        out.checkInvariants()
        for x in 0..<256 { #expect(out.pixel(x, 3).a == 128) }
        // Warmth makes a neutral grey warmer (red above blue); fade lifts black.
        let g = PhotoAdjustments(try photo { $0.warmth = 1 }).apply((0.5, 0.5, 0.5))
        #expect(g.0 > g.2)
        #expect(PhotoAdjustments(try photo { $0.fade = 1 }).apply((0, 0, 0)).0 > 0.1)
    }
}
