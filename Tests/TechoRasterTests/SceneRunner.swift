// Draws the cairo-referenced primitive scenes (Fixtures/primitives/*.json) with the raster API.

import Foundation
import TechoGeometry
import TechoRaster
import TechoTestSupport

/// A deliberate fault to inject, to prove the fidelity metric catches wrong renders.
enum SceneFault: String, CaseIterable, Sendable {
    case none, aliased, shifted, buttCaps, nearestImages
}

/// A minimal interpreter for the scene format described in the fixtures' README.
struct SceneRunner {
    let directory: URL
    var fault: SceneFault = .none

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    func render(_ name: String) throws -> Pixmap {
        let url = directory.appendingPathComponent("\(name).json")
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: url))
        guard let scene = json as? [String: Any], let canvas = scene["canvas"] as? [String: Any],
            let w = canvas["width"] as? Int, let h = canvas["height"] as? Int,
            let ops = scene["ops"] as? [[String: Any]]
        else {
            throw Failure(description: "\(url.path): missing canvas or ops")
        }
        var pix = Pixmap(width: w, height: h)
        if let bg = canvas["background"] as? String {
            pix.fill(Path.rect(Rect(x: 0, y: 0, width: Double(w), height: Double(h))), paint: Paint(color: try color(bg)))
        }
        for (i, op) in ops.enumerated() { try draw(op, into: &pix, path: "\(name).ops[\(i)]") }
        return pix
    }

    var base: Transform { fault == .shifted ? .translation(1, 0) : .identity }

    func draw(_ op: [String: Any], into pix: inout Pixmap, path: String) throws {
        let kind = op["op"] as? String ?? ""
        func num(_ k: String) throws -> Double {
            guard let v = op[k] as? Double ?? (op[k] as? Int).map(Double.init) else { throw Failure(description: "\(path).\(k) missing") }
            return v
        }
        func points() throws -> [Point] {
            guard let arr = op["points"] as? [[Any]] else { throw Failure(description: "\(path).points missing") }
            return arr.map { p in Point(p[0] as? Double ?? Double(p[0] as? Int ?? 0), p[1] as? Double ?? Double(p[1] as? Int ?? 0)) }
        }
        func paint() throws -> Paint {
            Paint(color: try color(op["color"] as? String ?? "#000000"), antiAlias: fault != .aliased)
        }
        func style() throws -> StrokeStyle {
            var cap = LineCap(rawValue: op["cap"] as? String ?? "butt") ?? .butt
            if fault == .buttCaps { cap = .butt }
            return StrokeStyle(
                width: try num("width"), cap: cap,
                join: LineJoin(rawValue: op["join"] as? String ?? "miter") ?? .miter,
                miterLimit: (op["miter_limit"] as? Double) ?? Double(op["miter_limit"] as? Int ?? 10),
                dash: (op["dash"] as? [Any])?.map { $0 as? Double ?? Double($0 as? Int ?? 0) } ?? [],
                dashOffset: (op["dash_offset"] as? Double) ?? 0)
        }
        switch kind {
        case "fill_circle":
            pix.fill(.circle(center: Point(try num("cx"), try num("cy")), radius: try num("r")), paint: try paint(), transform: base)
        case "fill_polygon":
            let rule = FillRule(rawValue: op["fill_rule"] as? String ?? "nonzero") ?? .nonZero
            pix.fill(.polyline(try points(), closed: true), paint: try paint(), rule: rule, transform: base)
        case "stroke_polyline":
            pix.stroke(
                .polyline(try points(), closed: op["closed"] as? Bool ?? false), style: try style(),
                paint: try paint(), transform: base)
        case "erase_polyline":
            var p = Paint(color: .black, blendMode: .destinationOut, antiAlias: fault != .aliased)
            p.color = .black
            pix.stroke(.polyline(try points(), closed: false), style: try style(), paint: p, transform: base)
        case "stroke_ellipse":
            let (cx, cy, rx, ry) = (try num("cx"), try num("cy"), try num("rx"), try num("ry"))
            pix.stroke(
                .ellipse(in: Rect(x: cx - rx, y: cy - ry, width: 2 * rx, height: 2 * ry)), style: try style(),
                paint: try paint(), transform: base)
        case "image":
            guard let src = op["src"] as? String, let m = op["matrix"] as? [Any] else { throw Failure(description: "\(path): src/matrix") }
            let v = m.map { $0 as? Double ?? Double($0 as? Int ?? 0) }
            let image = try loadImage(directory.appendingPathComponent(src))
            let t = Transform(a: v[0], b: v[1], c: v[2], d: v[3], tx: v[4], ty: v[5]).concatenating(base)
            var filter = ImageFilter(rawValue: op["filter"] as? String ?? "bilinear") ?? .bilinear
            if fault == .nearestImages { filter = .nearest }
            pix.draw(image, transform: t, opacity: (op["opacity"] as? Double) ?? 1, filter: filter)
        case "layer":
            var layer = Pixmap(width: pix.width, height: pix.height)
            for (i, sub) in (op["ops"] as? [[String: Any]] ?? []).enumerated() {
                try draw(sub, into: &layer, path: "\(path).ops[\(i)]")
            }
            pix.composite(layer, x: 0, y: 0, opacity: (op["opacity"] as? Double) ?? Double(op["opacity"] as? Int ?? 1))
        default:
            throw Failure(description: "\(path).op: unknown op \(kind)")
        }
    }

    func color(_ s: String) throws -> Color {
        guard s.hasPrefix("#"), s.count == 7, let v = UInt32(s.dropFirst(), radix: 16) else {
            throw Failure(description: "bad colour \(s)")
        }
        return Color(r8: UInt8(v >> 16), g8: UInt8((v >> 8) & 0xff), b8: UInt8(v & 0xff))
    }
}
