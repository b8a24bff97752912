// Test helpers: a temporary asset folder of generated images, element builders, pixel probes.

import Foundation
import TechoCodecs
import TechoModel
import TechoRaster

@testable import TechoRender

/// Generated assets in a temporary folder, and a renderer that finds them.
final class RenderFixture {
    let dir: URL
    private(set) var urls: [AssetRef: URL] = [:]
    private var count = 0

    init() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("techo-render-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: dir) }

    /// Stores `bytes` as a new asset.
    func add(bytes: [UInt8], ext: String) throws -> AssetRef {
        count += 1
        let ref = try AssetRef(sha256: String(repeating: "0", count: 56) + String(format: "%08x", count), ext: ext)
        let url = dir.appendingPathComponent("\(ref.sha256).\(ext)")
        try Data(bytes).write(to: url)
        urls[ref] = url
        return ref
    }

    func addPNG(_ p: Pixmap) throws -> AssetRef { try add(bytes: PNGEncoder.encode(p), ext: "png") }
    func addJPEG(_ p: Pixmap, quality: Int = 95) throws -> AssetRef {
        try add(bytes: JPEGEncoder.encode(p, quality: quality, chromaSubsampling: false), ext: "jpg")
    }

    func renderer() -> PageRenderer {
        let urls = self.urls
        return PageRenderer { ref in
            guard let u = urls[ref] else { throw RenderError(pageID: "-", message: "no asset \(ref)") }
            return u
        }
    }
}

/// A solid image.
func solid(_ w: Int, _ h: Int, _ c: (UInt8, UInt8, UInt8, UInt8)) -> Pixmap {
    var p = Pixmap(width: w, height: h)
    let pm = Color(r8: c.0, g8: c.1, b8: c.2, a8: c.3).premultiplied8
    p.fill(r: pm.r, g: pm.g, b: pm.b, a: pm.a)
    return p
}

/// Four coloured quadrants: red top-left, green top-right, blue bottom-left, yellow bottom-right.
func quadrants(_ n: Int) -> Pixmap {
    var p = Pixmap(width: n, height: n)
    for y in 0..<n {
        for x in 0..<n {
            let c: (UInt8, UInt8, UInt8) = y < n / 2 ? (x < n / 2 ? (255, 0, 0) : (0, 255, 0)) : (x < n / 2 ? (0, 0, 255) : (255, 255, 0))
            p.setPixel(x, y, (c.0, c.1, c.2, 255))
        }
    }
    return p
}

/// An opaque disc of `radius` centred in an n×n transparent image.
func disc(_ n: Int, radius: Double, _ c: (UInt8, UInt8, UInt8)) -> Pixmap {
    var p = Pixmap(width: n, height: n)
    p.fill(.circle(center: Point(Double(n) / 2, Double(n) / 2), radius: radius), paint: Paint(color: Color(r8: c.0, g8: c.1, b8: c.2)))
    return p
}

/// A smooth two-axis gradient (red across, green down).
func gradient(_ w: Int, _ h: Int) -> Pixmap {
    var p = Pixmap(width: w, height: h)
    for y in 0..<h { for x in 0..<w { p.setPixel(x, y, (UInt8(x * 255 / (w - 1)), UInt8(y * 255 / (h - 1)), 128, 255)) } }
    return p
}

func page(
    _ w: Double?, _ h: Double?, dpi: Double = 72, background: Background = Background(), margin: Double = 0,
    _ elements: [Element]
) throws -> Page {
    try Page(id: "p1", size: PageSize(width: w, height: h), dpi: dpi, background: background, margin: margin, elements: elements)
}

func imageElement(
    _ id: String, _ asset: AssetRef, _ w: Double, _ h: Double, at c: Point, scale: Double = 1, rotation: Double = 0,
    flipH: Bool = false, opacity: Double = 1, outline: Outline? = nil
) throws -> Element {
    try Element(
        id: id, content: .image(ImageContent(asset: asset, naturalWidth: w, naturalHeight: h, outline: outline)),
        placement: Placement(center: c, scale: scale, rotation: rotation, flipH: flipH), opacity: opacity)
}

func inkElement(_ id: String, _ strokes: [Stroke]) throws -> Element {
    try Element(id: id, content: .ink(InkContent(strokes: strokes)))
}

func points(_ pts: [(Double, Double)]) -> [StrokePoint] { pts.map { StrokePoint($0.0, $0.1) } }

/// The straight-alpha pixel at (x, y).
func px(_ p: Pixmap, _ x: Int, _ y: Int) -> (r: Int, g: Int, b: Int, a: Int) {
    let v = p.pixel(x, y)
    return (Int(unpremultiply(v.r, v.a)), Int(unpremultiply(v.g, v.a)), Int(unpremultiply(v.b, v.a)), Int(v.a))
}

/// True when every channel is within `tol` of the expected straight colour.
func near(_ a: (r: Int, g: Int, b: Int, a: Int), _ e: (Int, Int, Int), tol: Int = 3) -> Bool {
    abs(a.r - e.0) <= tol && abs(a.g - e.1) <= tol && abs(a.b - e.2) <= tol
}
