import Foundation
import TechoModel
import TechoRaster
import Testing

@testable import TechoRender

@Suite struct PageTests {
    @Test func autoHeightGrowsToTheContentPlusMargin() throws {
        let f = try RenderFixture()
        let asset = try f.addPNG(solid(40, 40, (0, 0, 0, 255)))
        let e = try imageElement("img", asset, 40, 40, at: Point(100, 150))
        let ink = try inkElement("ink-1", [Stroke(tool: .line, color: .black, width: 4, from: Point(10, 10), to: Point(50, 10))])
        let pg = try page(200, nil, margin: 10, [e, ink])
        let r = f.renderer()
        let size = try r.resolvedSize(of: pg)
        #expect(size.width == 200 && size.height == 180)
        let out = try r.render(pg, scale: 2)
        #expect(out.pixmap.width == 400 && out.pixmap.height == 360)
        #expect(near(px(out.pixmap, 200, 320), (0, 0, 0), tol: 0))
    }

    @Test func overLimitPagesAreRefusedWithTheSizeAndTheLimit() throws {
        let f = try RenderFixture()
        let pg = try page(10000, 10000, [])
        #expect {
            _ = try f.renderer().render(pg, scale: 2)
        } throws: { error in
            let m = "\(error)"
            return m.hasPrefix("page p1: ") && m.contains("20000x20000 px") && m.contains("16384 px a side")
        }
        let wide = try page(12000, 8000, [])
        #expect {
            _ = try f.renderer().render(wide, scale: 1.2)
        } throws: { error in "\(error)".contains("14400x9600 px (138.2 megapixels)") && "\(error)".contains("100 megapixels") }
    }

    @Test func corruptAssetsNameThePageElementAndAsset() throws {
        let f = try RenderFixture()
        let asset = try f.add(bytes: [0xFF, 0xD8, 0xFF, 0xE0, 0, 16, 1, 2, 3], ext: "jpg")
        let e = try imageElement("photo-2", asset, 40, 40, at: Point(50, 50))
        #expect {
            _ = try f.renderer().render(page(100, 100, [e]))
        } throws: { error in
            let m = "\(error)"
            return m.hasPrefix("page p1, element photo-2: \(asset.path): ") && !m.contains(f.dir.path)
        }
    }

    @Test func textHasInkInItsBoxAndWarnsAboutMissingGlyphs() throws {
        let f = try RenderFixture()
        var t = TextContent(text: "Hello \u{E000}")
        t.size = 40
        t.color = RGBA(r: 200, g: 0, b: 0)
        t.outline = try Outline(width: 3, color: .white)
        let r = f.renderer()
        let size = try r.naturalSize(of: t)
        #expect(size.width > 60 && size.height > 40)
        let e = try Element(id: "text-1", content: .text(t), placement: Placement(center: Point(150, 50)))
        let out = try r.render(page(300, 100, background: Background(color: RGBA(r: 0, g: 0, b: 80)), [e]))
        var red = 0, white = 0
        for y in Int(50 - size.height / 2)..<Int(50 + size.height / 2) {
            for x in Int(150 - size.width / 2)..<Int(150 + size.width / 2) {
                let v = px(out.pixmap, x, y)
                if v.r > 150 && v.g < 60 { red += 1 }
                if v.r > 200 && v.g > 200 && v.b > 200 { white += 1 }
            }
        }
        #expect(red > 100)
        #expect(white > 50)  // the outline shows around the letters
        #expect(near(px(out.pixmap, 5, 5), (0, 0, 80), tol: 0))
        #expect(out.warnings.contains { $0.hasPrefix("element text-1: ") && $0.contains("U+E000") })
    }

    @Test func hiddenElementsAreSkipped() throws {
        let f = try RenderFixture()
        let asset = try f.addPNG(solid(40, 40, (0, 0, 0, 255)))
        var e = try imageElement("img", asset, 40, 40, at: Point(50, 50))
        e.hidden = true
        let p = try f.renderer().render(page(100, 100, [e])).pixmap
        #expect(near(px(p, 50, 50), (255, 255, 255), tol: 0))
    }

    @Test func rendersAreIdenticalAcrossRunsAndThreads() throws {
        let f = try RenderFixture()
        let pg = try showcasePage(f, width: 240, height: 320)
        let r = f.renderer()
        let first = try r.render(pg).pixmap
        #expect(try f.renderer().render(pg).pixmap == first)
        // Four renders at once on one shared renderer.
        let results = UnsafeMutableBufferPointer<Pixmap?>.allocate(capacity: 4)
        results.initialize(repeating: nil)
        defer { results.deinitialize(); results.deallocate() }  // deinitialize releases the pixmaps
        DispatchQueue.concurrentPerform(iterations: 4) { i in results[i] = try? r.render(pg).pixmap }
        for i in 0..<4 { #expect(results[i] == first) }
    }
}

/// A small journal page using every element kind, for determinism tests and the showcase.
func showcasePage(_ f: RenderFixture, width: Double, height: Double) throws -> Page {
    let k = width / 240
    let photo = try f.addJPEG(gradient(120, 90))
    let sticker = try f.addPNG(disc(64, radius: 26, (240, 170, 60)))
    var ph = PhotoContent(image: try ImageContent(asset: photo, naturalWidth: 120, naturalHeight: 90))
    ph.frame = .polaroid; ph.shadow = true; ph.warmth = 0.3; ph.fade = 0.2
    var title = TextContent(text: "Spring walk")
    title.size = 22 * k; title.color = RGBA(r: 0x5B, g: 0x3A, b: 0x29)
    let paper = try Paper(pattern: .dots, spacing: 12 * k, color: Paper.defaultColor, margin: 8 * k)
    return try page(
        width, height, background: Background(color: RGBA(r: 0xF6, g: 0xF0, b: 0xE4), paper: paper),
        [
            Element(id: "photo-1", content: .photo(ph), placement: Placement(center: Point(110 * k, 150 * k), scale: k, rotation: -6)),
            Element(
                id: "washi-1", content: .washi(try WashiContent(from: Point(-30, 0), to: Point(30, 0), width: 14)),
                placement: Placement(center: Point(110 * k, 95 * k), scale: k, rotation: -10)),
            imageElement(
                "sticker-1", sticker, 64, 64, at: Point(185 * k, 230 * k), scale: k * 0.8, rotation: 12,
                outline: try Outline(width: 4, color: .white)),
            Element(id: "text-1", content: .text(title), placement: Placement(center: Point(120 * k, 40 * k), rotation: -2)),
            inkElement(
                "ink-1",
                [
                    Stroke(
                        tool: .pencil, color: RGBA(r: 0xE0, g: 0x7A, b: 0x5F), width: 2.5 * k,
                        points: points([(40, 270), (70, 262), (100, 276), (130, 266), (160, 280)].map { ($0.0 * k, $0.1 * k) })),
                    Stroke(
                        tool: .highlighter, color: RGBA(r: 255, g: 236, b: 120), width: 10 * k,
                        points: points([(60, 42), (180, 38)].map { ($0.0 * k, $0.1 * k) })),
                ]),
        ])
}

@Suite struct ImageCacheTests {
    @Test func evictionKeepsResultsCorrect() throws {
        let f = try RenderFixture()
        let a = try f.addPNG(quadrants(40)), b = try f.addPNG(gradient(30, 20))
        let urls = f.urls
        // A budget of one byte: every new entry evicts the others.
        let cache = ImageCache(
            assetURL: { ref in
                guard let u = urls[ref] else { throw RenderError(pageID: "-", message: "no asset \(ref)") }
                return u
            }, budget: 1)
        let first = try cache.image(a, natural: (40, 40), needed: (40, 40))
        _ = try cache.image(b, natural: (30, 20), needed: (30, 20))
        _ = try cache.image(a, natural: (40, 40), needed: (10, 10))
        #expect(try cache.image(a, natural: (40, 40), needed: (40, 40)) == first)
        #expect(first == quadrants(40))
        // Reduced decodes cover the size asked for.
        let half = try cache.image(a, natural: (40, 40), needed: (20, 20))
        #expect(half.width == 20 && half.height == 20)
    }
}

@Suite struct DecodeScaleTests {
    @Test func jpegsDecodeAtTheDCTScaleTheDeviceSizeNeeds() throws {
        let f = try RenderFixture()
        let asset = try f.addJPEG(gradient(400, 320))
        let urls = f.urls
        let cache = ImageCache(assetURL: { ref in
            guard let u = urls[ref] else { throw RenderError(pageID: "-", message: "no asset \(ref)") }
            return u
        })
        #expect(try cache.image(asset, natural: (400, 320), needed: (90, 70)).width == 100)
        #expect(try cache.image(asset, natural: (400, 320), needed: (120, 70)).width == 200)
        #expect(try cache.image(asset, natural: (400, 320), needed: (400, 320)).width == 400)
    }
}
