// One page on several threads: the page is byte-identical whatever the number of threads that
// compose it (1, the page thread alone, is the serial path), at print and preview scales, and a
// preview re-rendered after an element moved is the page a fresh renderer makes.

import Foundation
import TechoModel
import TechoRaster
import Testing

@testable import TechoRender

extension RenderFixture {
    func renderer(threads: Int) -> PageRenderer {
        let urls = self.urls
        return PageRenderer(
            assetURL: { ref in
                guard let u = urls[ref] else { throw RenderError(pageID: "-", message: "no asset \(ref)") }
                return u
            }, composeThreads: threads)
    }
}

/// A page with every kind of drawing the compositor makes: a tiled background under dots,
/// framed and plain photos with shadows, stickers with and without a die-cut outline, a slot
/// clip, text with an outline and plain text in two scripts, washi tape, and ink with pencil,
/// a filled translucent shape, a highlighter and an eraser.
func busyPage(_ f: RenderFixture) throws -> Page {
    let base = try showcasePage(f, width: 720, height: 960)
    let photo = try f.addJPEG(gradient(400, 300))
    let sticker = try f.addPNG(disc(96, radius: 40, (90, 160, 220)))
    let tile = try f.addPNG(gradient(48, 48))
    var plain = PhotoContent(image: try ImageContent(asset: photo, naturalWidth: 400, naturalHeight: 300))
    plain.saturation = -0.3
    var framed = plain
    framed.frame = .border; framed.shadow = true; framed.radius = 12
    var label = TextContent(text: "京都の旅 · Kyoto Day 1")
    label.size = 40; label.outline = try Outline(width: 3, color: .white)
    var note = TextContent(text: "The canal at dusk, 18:30 — 川沿いを歩く")
    note.size = 26; note.maxWidth = 300; note.align = .left
    let clipped = try Element(
        id: "sticker-clipped", content: .image(ImageContent(asset: sticker, naturalWidth: 96, naturalHeight: 96)),
        placement: Placement(center: Point(600, 120), scale: 1.6, rotation: 20),
        clip: try SlotFrame(rect: Rect(x: 560, y: 80, width: 90, height: 70), rotation: 8))
    let extra: [Element] = [
        try Element(id: "photo-plain", content: .photo(plain), placement: Placement(center: Point(520, 420), scale: 0.6, rotation: 0)),
        try Element(id: "photo-framed", content: .photo(framed), placement: Placement(center: Point(250, 640), scale: 0.7, rotation: 7)),
        try imageElement("sticker-plain", sticker, 96, 96, at: Point(640, 760), scale: 1.2, rotation: -15, opacity: 0.8),
        try imageElement("sticker-outlined", sticker, 96, 96, at: Point(90, 860), scale: 0.9, outline: try Outline(width: 6, color: .white)),
        clipped,
        try Element(id: "text-label", content: .text(label), placement: Placement(center: Point(380, 80), rotation: 3)),
        try Element(id: "text-note", content: .text(note), placement: Placement(center: Point(520, 600))),
        try Element(
            id: "washi-2", content: .washi(try WashiContent(from: Point(-80, 0), to: Point(80, 0), width: 30, ends: .zigzag)),
            placement: Placement(center: Point(520, 300), rotation: -4)),
        try inkElement(
            "ink-2",
            [
                try Stroke(
                    tool: .pencil, color: RGBA(r: 0x30, g: 0x50, b: 0x90), width: 6,
                    points: (0..<30).map { StrokePoint(60 + Double($0) * 20, 900 + 25 * sin(Double($0) / 3), pressure: 0.3 + Double($0 % 5) / 8) }),
                try Stroke(
                    tool: .ellipse, color: RGBA(r: 0x90, g: 0x30, b: 0x50), width: 4, opacity: 0.6, from: Point(420, 820),
                    to: Point(560, 920), fill: RGBA(r: 0xF0, g: 0xC0, b: 0x40)),
                try Stroke(tool: .highlighter, color: RGBA(r: 255, g: 232, b: 110), width: 30, points: points([(100, 700), (400, 690)])),
                try Stroke(tool: .eraser, width: 24, points: points([(200, 880), (260, 940)])),
            ]),
    ]
    let bg = Background(
        color: RGBA(r: 0xF6, g: 0xF0, b: 0xE4),
        image: try BackgroundImage(asset: tile, mode: .tile, opacity: 0.2),
        paper: try Paper(pattern: .dots, spacing: 30, color: Paper.defaultColor, margin: 20))
    return try Page(id: "p1", size: base.size, dpi: base.dpi, background: bg, elements: base.elements + extra)
}

@Suite struct ParallelComposeTests {
    @Test(arguments: [1.0, 0.4])
    func pageIsByteIdenticalOnAnyNumberOfThreads(scale: Double) throws {
        let f = try RenderFixture()
        let pg = try busyPage(f)
        let serial = try f.renderer(threads: 1).render(pg, scale: scale)
        #expect(serial.pixmap.data.contains { $0 != 0 })
        for threads in [2, 3, 8] {
            let r = try f.renderer(threads: threads).render(pg, scale: scale)
            #expect(r.pixmap == serial.pixmap, "\(threads) threads at scale \(scale) differ from the page thread alone")
            #expect(r.warnings == serial.warnings)
        }
    }

    @Test func theFirstFailingElementInStackingOrderIsReportedOnAnyNumberOfThreads() throws {
        let f = try RenderFixture()
        var pg = try busyPage(f)
        let broken = try f.add(bytes: Array("not a picture".utf8), ext: "png")
        pg.elements.insert(try imageElement("sticker-broken", broken, 50, 50, at: Point(100, 100)), at: 3)
        pg.elements.append(try imageElement("sticker-broken-too", broken, 50, 50, at: Point(200, 100)))
        for threads in [1, 2, 8] {
            #expect {
                _ = try f.renderer(threads: threads).render(pg)
            } throws: { error in
                "\(error)".contains("sticker-broken") && !"\(error)".contains("sticker-broken-too")
            }
        }
    }

    @Test func aPreviewReRenderedAfterAnElementMovedIsTheFreshPage() throws {
        let f = try RenderFixture()
        var pg = try busyPage(f)
        let editor = f.renderer(threads: 2)
        let first = try editor.render(pg, scale: 0.5)
        #expect(try editor.render(pg, scale: 0.5).pixmap == first.pixmap, "an unchanged re-render")
        let i = try #require(pg.elements.firstIndex { $0.id == "sticker-plain" })
        let old = pg.elements[i].placement
        pg.elements[i].placement = try Placement(center: Point(300, 300), scale: old.scale, rotation: old.rotation)
        let moved = try editor.render(pg, scale: 0.5)
        #expect(moved.pixmap != first.pixmap)
        #expect(moved.pixmap == (try f.renderer(threads: 1).render(pg, scale: 0.5)).pixmap)
        // A changed background too.
        pg.background.color = RGBA(r: 0xE0, g: 0xF0, b: 0xF6)
        #expect(try editor.render(pg, scale: 0.5).pixmap == (try f.renderer(threads: 1).render(pg, scale: 0.5)).pixmap)
    }
}

/// How the drawings of a page are shared out between threads.
@Suite struct ComposeWorkTests {
    /// Photos first, then ink, then pictures, then the rest, stacking order among equals: the
    /// drawing that takes longest does not start last.
    @Test func theLongestDrawingsAreTakenFirst() throws {
        let f = try RenderFixture()
        let page = try busyPage(f)
        let order = PageRenderer.workOrder(page.elements)
        #expect(order.sorted() == Array(page.elements.indices))
        func kind(_ i: Int) -> String {
            switch page.elements[i].content {
            case .photo: return "photo"
            case .ink: return "ink"
            case .image: return "image"
            default: return "other"
            }
        }
        let kinds = order.map(kind)
        let ranks = ["photo": 0, "ink": 1, "image": 2, "other": 3]
        #expect(kinds.map { ranks[$0]! } == kinds.map { ranks[$0]! }.sorted(), "\(kinds)")
        #expect(kinds.first == "photo" && kinds.contains("ink") && kinds.last == "other", "\(kinds)")
        for (a, b) in zip(order, order.dropFirst()) where kind(a) == kind(b) { #expect(a < b) }
    }

    /// The page thread, waiting for a drawing a worker is making, makes the drawings nobody has
    /// started meanwhile. Here the worker's drawing (0) can only finish once drawing 2 is made:
    /// with a page thread that only waited, it would wait out its 10 s and fail.
    @Test func thePageThreadWorksWhileItWaits() throws {
        let twoMade = DispatchSemaphore(value: 0)
        let started = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var zeroSawTwo = false
        let jobs = ComposeJobs(count: 3, order: [0, 2, 1]) { i in
            if i == 0 {
                started.signal()
                zeroSawTwo = twoMade.wait(timeout: .now() + 10) == .success
            }
            if i == 2 { twoMade.signal() }
            return ElementDrawing()
        }
        jobs.start(workers: 1)
        defer { jobs.finish() }
        // The worker has taken drawing 0; the page thread asks for it and is left with 2 and 1.
        #expect(started.wait(timeout: .now() + 10) == .success)
        for i in 0..<3 { _ = try jobs.drawing(i) }
        #expect(zeroSawTwo, "drawing 2 was made while the page thread waited for drawing 0")
    }
}
