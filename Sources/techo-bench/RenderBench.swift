// Page composition figures: the reference page (A5 at 300 dpi, four 4032x3024 photos shown 700 px
// wide, twelve 512 px stickers, six text blocks, one ink layer of 150 pencil strokes, washi tape,
// a paper texture and dots), composed cold (decoding included) and warm (decoded images cached).
//
// Assets come from TECHO_BENCH_ASSETS (the layout `techo-assets bench DIR` writes:
// photos/photo1-4.jpg, stickers/sticker01-12.png, paper/kraft.png); missing files are
// synthesised into a temporary folder. TECHO_BENCH_PNG=FILE also writes the page there.
import Foundation
import TechoCodecs
import TechoModel
import TechoRaster
import TechoRender

func renderBench() {
    do {
        let dir = try benchAssetFolder()
        let page = try referencePage(assets: dir)
        func renderer() -> PageRenderer { PageRenderer { dir.appendingPathComponent(benchAssetNames[$0] ?? "") } }
        // Wall time, and this thread's CPU time (what the render costs on a machine that is busy
        // with other work too).
        var cold: [Double] = [], coldCPU: [Double] = [], warm: [Double] = [], warmCPU: [Double] = []
        var last: RenderedPage?
        for _ in 0..<3 {
            let r = renderer()
            var t = Date()
            let c0 = threadCPUSeconds()
            last = try r.render(page)
            coldCPU.append(threadCPUSeconds() - c0)
            cold.append(Date().timeIntervalSince(t))
            for _ in 0..<3 {
                t = Date()
                let c = threadCPUSeconds()
                last = try r.render(page)
                warmCPU.append(threadCPUSeconds() - c)
                warm.append(Date().timeIntervalSince(t))
            }
        }
        let median = { (v: [Double]) in v.sorted()[v.count / 2] * 1000 }
        guard let out = last else { return }
        print(
            String(
                format: "render reference page %dx%d, median: cold (decode + compose) %.0f ms wall, %.0f ms CPU; warm (compose) %.0f ms wall, %.0f ms CPU",
                out.pixmap.width, out.pixmap.height, median(cold), median(coldCPU), median(warm), median(warmCPU)))
        // Two pages at once on one renderer, as a multi-page export does.
        let shared = renderer()
        _ = try shared.render(page)
        let t = Date()
        DispatchQueue.concurrentPerform(iterations: 4) { _ in _ = try? shared.render(page) }
        print(String(format: "render 4 warm pages on all cores: %.0f ms", Date().timeIntervalSince(t) * 1000))
        if let path = ProcessInfo.processInfo.environment["TECHO_BENCH_PNG"] {
            try Data(PNGEncoder.encode(out.pixmap, dpi: out.dpi)).write(to: URL(fileURLWithPath: path))
            print("render: wrote \(path)")
        }
    } catch {
        print("render: \(error)")
    }
}

/// CPU time of the calling thread, seconds.
private func threadCPUSeconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

/// Asset refs of the bench page → file names in the asset folder.
private nonisolated(unsafe) var benchAssetNames: [AssetRef: String] = [:]

private func benchRef(_ name: String) throws -> AssetRef {
    var h: UInt64 = 0xCBF2_9CE4_8422_2325
    for b in name.utf8 { h = (h ^ UInt64(b)) &* 0x0000_0100_0000_01B3 }
    let ref = try AssetRef(
        sha256: String(repeating: "0", count: 48) + String(format: "%016llx", h),
        ext: String(name.split(separator: ".").last ?? "png"))
    benchAssetNames[ref] = name
    return ref
}

/// The asset folder, with any missing file synthesised.
private func benchAssetFolder() throws -> URL {
    let env = ProcessInfo.processInfo.environment["TECHO_BENCH_ASSETS"]
    let dir = env.map { URL(fileURLWithPath: $0) } ?? FileManager.default.temporaryDirectory.appendingPathComponent("techo-bench-render-assets")
    let fm = FileManager.default
    for sub in ["photos", "stickers", "paper"] {
        try fm.createDirectory(at: dir.appendingPathComponent(sub), withIntermediateDirectories: true)
    }
    func make(_ name: String, _ bytes: () throws -> [UInt8]) throws {
        let url = dir.appendingPathComponent(name)
        if !fm.fileExists(atPath: url.path) { try Data(try bytes()).write(to: url) }
    }
    for i in 1...4 {
        try make("photos/photo\(i).jpg") {
            try JPEGEncoder.encode(benchPicture(width: 4032, height: 3024, seed: i, opaque: true), quality: 90)
        }
    }
    for i in 1...12 {
        try make(String(format: "stickers/sticker%02d.png", i)) { try PNGEncoder.encode(benchPicture(width: 512, height: 512, seed: i, opaque: false)) }
    }
    try make("paper/kraft.png") { try PNGEncoder.encode(benchPicture(width: 256, height: 256, seed: 99, opaque: true)) }
    return dir
}

/// A smooth synthetic picture; a disc-shaped sticker when not opaque.
private func benchPicture(width: Int, height: Int, seed: Int, opaque: Bool) -> Pixmap {
    var p = Pixmap(width: width, height: height)
    for y in 0..<height {
        for x in 0..<width {
            let u = Double(x) / Double(width), v = Double(y) / Double(height)
            let r = UInt8(120 + 100 * sin(6 * u + Double(seed))), g = UInt8(120 + 90 * cos(5 * v + Double(seed)))
            let b = UInt8(140 + 80 * sin(3 * (u + v)))
            p.setPixel(x, y, (r, g, b, 255))
        }
    }
    if !opaque {
        var m = Pixmap(width: width, height: height)
        m.fill(.circle(center: Point(Double(width) / 2, Double(height) / 2), radius: Double(width) * 0.42), paint: Paint())
        p.composite(m, x: 0, y: 0, blendMode: .destinationIn)
    }
    return p
}

/// The reference page, laid out like a travel-journal spread.
func referencePage(assets dir: URL) throws -> Page {
    let dpi = 300.0
    let mm = dpi / 25.4
    let (W, H) = (1748.0, 2480.0)
    var rng = SplitMix64(seed: 7)
    var elements: [Element] = []
    let photoSpots: [(Double, Double, Double, PhotoContent.Frame)] = [
        (470, 640, -5, .polaroid), (1290, 560, 4, .border),
        (520, 1420, 3, .border), (1260, 1330, -3, .polaroid),
    ]
    for (i, spot) in photoSpots.enumerated() {
        let info = try ImageDecoder.info(contentsOf: dir.appendingPathComponent("photos/photo\(i + 1).jpg").path)
        let (nw, nh) = (Double(info.naturalWidth), Double(info.naturalHeight))
        var p = PhotoContent(image: try ImageContent(asset: try benchRef("photos/photo\(i + 1).jpg"), naturalWidth: nw, naturalHeight: nh))
        p.frame = spot.3; p.shadow = true; p.radius = spot.3 == .border ? 6 / (700 / nw) : 0
        if i == 2 { p.warmth = 0.35; p.fade = 0.3 }
        if i == 3 { p.saturation = -0.2; p.contrast = 0.1 }
        elements.append(
            try Element(
                id: "photo-\(i + 1)", content: .photo(p),
                placement: Placement(center: Point(spot.0, spot.1), scale: 700 / max(nw, nh), rotation: spot.2)))
    }
    let stickerSpots: [(Double, Double, Double, Double)] = [
        (700, 200, 0.34, 12), (850, 720, 0.36, -10), (320, 1030, 0.32, 0), (1610, 1060, 0.32, 8),
        (1060, 1030, 0.28, -20), (1150, 400, 0.30, 0), (1540, 2170, 0.36, -15), (960, 2330, 0.3, 10),
        (930, 1960, 0.26, -8), (1630, 1640, 0.28, 15), (1090, 2140, 0.36, 5), (1430, 1990, 0.42, -6),
    ]
    for (i, spot) in stickerSpots.enumerated() {
        let ref = try benchRef(String(format: "stickers/sticker%02d.png", i + 1))
        elements.append(
            try Element(
                id: "sticker-\(i + 1)",
                content: .image(
                    ImageContent(
                        asset: ref, naturalWidth: 512, naturalHeight: 512,
                        outline: i % 3 == 0 ? try Outline(width: 10, color: .white) : nil)),
                placement: Placement(center: Point(spot.0, spot.1), scale: spot.2, rotation: spot.3)))
    }
    let tapes: [(Double, Double, Double, RGBA)] = [
        (470, 270, -12, RGBA(r: 0xE8, g: 0xA0, b: 0xA0, a: 0xCC)),
        (1290, 200, 8, RGBA(r: 0x9C, g: 0xC9, b: 0xB4, a: 0xCC)),
        (520, 1080, 6, RGBA(r: 0xF2, g: 0xD0, b: 0x7A, a: 0xCC)),
    ]
    for (i, t) in tapes.enumerated() {
        let w = try WashiContent(from: Point(-130, 0), to: Point(130, 0), width: 15 * mm, fill: .color(t.3), ends: i == 1 ? .zigzag : .torn)
        elements.append(try Element(id: "washi-\(i + 1)", content: .washi(w), placement: Placement(center: Point(t.0, t.1), rotation: t.2)))
    }
    let texts: [(String, Double, Double, Double, Int)] = [
        ("京都の旅 · Kyoto, day one", 874, 110, 78, 700), ("Philosopher's Path at dawn", 470, 1010, 40, 400),
        ("the river, quiet", 1290, 940, 40, 400), ("tea & mochi 🍵", 520, 1860, 44, 400),
        ("Walked 14 km today. The cherry trees along the canal were just opening, and an old man fed the carp from a paper bag.", 1230, 1800, 34, 400),
        ("明日は嵐山へ", 1350, 2330, 52, 700),
    ]
    for (i, t) in texts.enumerated() {
        var c = TextContent(text: t.0)
        c.font = i == 0 || i == 5 ? "Noto Sans CJK JP" : "serif"
        c.size = t.3; c.weight = t.4; c.align = .center
        c.color = RGBA(r: 0x5B, g: 0x3A, b: 0x29)
        if i == 4 { c.maxWidth = 620; c.align = .left; c.lineHeight = 1.45 }
        elements.append(
            try Element(
                id: "text-\(i + 1)", content: .text(c),
                placement: Placement(center: Point(t.1, t.2), rotation: i == 1 ? -2 : (i == 3 ? 2 : 0))))
    }
    // 150 pencil strokes: a doodled meadow of thirty five-petal flowers, each petal one
    // pressure-sensitive loop, on a jittered grid in the lower left.
    var strokes: [Stroke] = []
    let inks = [RGBA(r: 0xE0, g: 0x7A, b: 0x8F), RGBA(r: 0xE0, g: 0x7A, b: 0x5F), RGBA(r: 0x9A, g: 0x7F, b: 0xC0), RGBA(r: 0x5B, g: 0x7D, b: 0xB1)]
    for flower in 0..<30 {
        let cx = 200 + Double(flower % 6) * 125 + rng.uniform(-25...25)
        let cy = 2010 + Double(flower / 6) * 78 + rng.uniform(-18...18)
        let length = rng.uniform(20...30), turn = rng.uniform(0...(2 * .pi / 5))
        let color = inks[(flower * 7) % inks.count]
        for petal in 0..<5 {
            let a = turn + Double(petal) * 2 * .pi / 5
            var pts: [StrokePoint] = []
            for k in 0...14 {
                let t = Double(k) / 14
                let r = length * sin(.pi * t), off = (t - 0.5) * 1.0
                pts.append(
                    StrokePoint(
                        cx + r * cos(a + off) + rng.uniform(-0.4...0.4), cy + r * sin(a + off) + rng.uniform(-0.4...0.4),
                        pressure: 0.45 + 0.5 * sin(.pi * t)))
            }
            strokes.append(try Stroke(tool: .pencil, color: color, width: 4, points: pts))
        }
    }
    strokes.append(
        try Stroke(
            tool: .dash, color: RGBA(r: 0x8A, g: 0x6E, b: 0x5A), width: 3, from: Point(790, 985), to: Point(1110, 935),
            dash: [14, 10]))
    strokes.append(
        try Stroke(
            tool: .highlighter, color: RGBA(r: 255, g: 232, b: 110), width: 40,
            points: [StrokePoint(1000, 1745), StrokePoint(1460, 1740)]))
    elements.append(try Element(id: "ink-1", content: .ink(InkContent(strokes: strokes))))
    let paper = try Paper(pattern: .dots, spacing: 5 * mm, color: Paper.defaultColor, margin: 6 * mm)
    let bg = Background(
        color: RGBA(r: 0xF6, g: 0xF0, b: 0xE4),
        image: try BackgroundImage(asset: try benchRef("paper/kraft.png"), mode: .tile, opacity: 0.18), paper: paper)
    return try Page(id: "p1", size: PageSize(width: W, height: H), dpi: dpi, background: bg, elements: elements)
}
