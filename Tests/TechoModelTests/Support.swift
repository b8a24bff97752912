// Test helpers: a seeded RNG and temp folders.

import Foundation
import TechoTestSupport

@testable import TechoModel

/// The seeded generator all of techo shares (SplitMix64, from TechoGeometry).
typealias SeededRNG = SplitMix64

/// A fresh empty folder under the system temp folder, removed by `cleanup()`.
struct TempDir {
    let url: URL
    init(_ name: String = #function) {
        let safe = name.filter { $0.isLetter || $0.isNumber }
        url = FileManager.default.temporaryDirectory.appendingPathComponent("techo-model-\(safe)-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }
    func cleanup() { try? FileManager.default.removeItem(at: url) }
    func write(_ name: String, _ bytes: [UInt8]) throws {
        let f = url.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: f.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(bytes).write(to: f)
    }
}

func near(_ a: Double, _ b: Double, _ tol: Double = 1e-9) -> Bool { abs(a - b) <= tol * max(1, abs(a), abs(b)) }

func near(_ a: Transform, _ b: Transform, _ tol: Double = 1e-9) -> Bool {
    near(a.a, b.a, tol) && near(a.b, b.b, tol) && near(a.c, b.c, tol) && near(a.d, b.d, tol) && near(a.tx, b.tx, tol) && near(a.ty, b.ty, tol)
}

/// Problems of a decoding error as "path: message" strings, or [] when `body` does not throw.
func problems(_ body: () throws -> Void) -> [String] {
    do { try body(); return [] } catch let e as JSONDecodingError { return e.problems.map(\.description) } catch { return ["\(error)"] }
}

/// A small page with one element of each kind.
func samplePage(id: String = "p1") throws -> Page {
    let asset = try AssetRef(sha256: String(repeating: "ab", count: 32), ext: "png")
    let image = try Element(
        id: "image-1", content: .image(ImageContent(asset: asset, naturalWidth: 400, naturalHeight: 300)),
        placement: Placement(center: Point(300, 300), scale: 0.5, rotation: 15))
    var photo = PhotoContent(image: try ImageContent(asset: asset, naturalWidth: 400, naturalHeight: 300))
    photo.frame = .polaroid; photo.sepia = 0.25; photo.crop = Rect(x: 10, y: 10, width: 200, height: 100)
    let photoEl = try Element(id: "photo-1", content: .photo(photo), placement: Placement(center: Point(874, 700), rotation: -6, flipH: true))
    var text = TextContent(text: "京都の旅 · Kyoto \"Day 1\"\n")
    text.size = 96; text.align = .center; text.color = try RGBA(parsing: "#5b3a29")
    let textEl = try Element(id: "text-1", content: .text(text), placement: Placement(center: Point(874, 180)))
    let ink = try Element(
        id: "ink-1",
        content: .ink(
            InkContent(strokes: [
                Stroke(tool: .pencil, color: try RGBA(parsing: "#e07a5f"), width: 6, points: [StrokePoint(100, 1500), StrokePoint(140, 1480, pressure: 0.5)]),
                Stroke(tool: .eraser, width: 30, points: [StrokePoint(120, 1490)]),
                Stroke(tool: .path, width: 2, d: "M0 0 L10 10 Z", fill: .white, fillRule: .evenOdd),
                Stroke(tool: .dash, width: 3, from: Point(0, 0), to: Point(100, 0), cap: .butt, dash: [6, 3], dashOffset: 1.5),
            ])))
    let washi = try Element(
        id: "washi-1", content: .washi(WashiContent(from: Point(-100, 0), to: Point(100, 0), width: 177)),
        placement: Placement(center: Point(500, 500), rotation: 30), opacity: 0.9)
    let paper = try Paper(pattern: .dots, spacing: 59, color: try RGBA(parsing: "#cbbfae"))
    return try Page(
        id: id, dpi: 300, background: Background(color: try RGBA(parsing: "#f6f0e4"), paper: paper),
        elements: [image, photoEl, textEl, ink, washi])
}
