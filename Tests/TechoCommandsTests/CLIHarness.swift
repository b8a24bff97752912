// Runs the built `techo` binary as a user would, in a scratch folder, and reads what it wrote.
import Foundation
import TechoCodecs
import TechoModel
import TechoRaster
import TechoTestSupport

/// The result of one `techo` run.
typealias RunResult = ChildResult

/// A scratch folder with helpers to run techo in it and make input images.
final class Workspace {
    let dir: URL

    init(_ name: String = #function) throws {
        let safe = name.filter { $0.isLetter || $0.isNumber }
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("techo-e2e-\(safe)-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: dir) }

    /// The `techo` binary next to the test bundle (swift build puts every product in one folder).
    static let binary = BuiltProducts.url("techo")

    /// Runs `techo ARGS…` in the workspace with stdin closed.
    @discardableResult
    func run(_ args: String...) throws -> RunResult { try run(args) }

    func run(_ args: [String], environment: [String: String] = [:]) throws -> RunResult {
        try ChildProcess.run(Workspace.binary, args, in: dir, adding: environment)
    }

    func url(_ relative: String) -> URL { dir.appendingPathComponent(relative) }
    func bytes(_ relative: String) throws -> [UInt8] { [UInt8](try Data(contentsOf: url(relative))) }
    /// The page stored at `relative` (`J.techo/pages/ID.json`) as techo reads it: with the
    /// strokes of its ink file.
    func storedPage(_ relative: String) throws -> Page {
        let file = url(relative)
        let id = file.deletingPathExtension().lastPathComponent
        guard let page = try JournalStore.open(file.deletingLastPathComponent().deletingLastPathComponent()).read().pages[id] else {
            throw StorageError(path: relative, message: "no such page")
        }
        return page
    }
    func exists(_ relative: String) -> Bool { FileManager.default.fileExists(atPath: url(relative).path) }

    /// Writes a solid-colour PNG of `w`×`h` (straight RGBA).
    func png(_ name: String, _ w: Int, _ h: Int, rgba: (UInt8, UInt8, UInt8, UInt8)) throws {
        let bytes = [UInt8]((0..<(w * h)).flatMap { _ in [rgba.0, rgba.1, rgba.2, rgba.3] })
        let pm = Pixmap(width: w, height: h, straightRGBA: bytes)
        try Data(try PNGEncoder.encode(pm, name: name)).write(to: url(name))
    }

    /// Writes a solid-colour JPEG.
    func jpeg(_ name: String, _ w: Int, _ h: Int, rgb: (UInt8, UInt8, UInt8)) throws {
        var pm = Pixmap(width: w, height: h)
        pm.fill(r: rgb.0, g: rgb.1, b: rgb.2, a: 255)
        try Data(try JPEGEncoder.encode(pm, quality: 95, name: name)).write(to: url(name))
    }

    /// Decodes an exported PNG.
    func image(_ relative: String) throws -> Pixmap {
        try ImageDecoder.decode(contentsOf: url(relative).path).pixels
    }

    /// The straight RGBA of one pixel of a decoded image.
    static func straight(_ p: Pixmap, _ x: Int, _ y: Int) -> (Int, Int, Int, Int) {
        let px = p.pixel(x, y)
        let a = px.a
        return (Int(unpremultiply(px.r, a)), Int(unpremultiply(px.g, a)), Int(unpremultiply(px.b, a)), Int(a))
    }
}

/// The chunks of a PNG file by type (first occurrence).
func pngChunks(_ png: [UInt8]) -> [String: [UInt8]] {
    var out: [String: [UInt8]] = [:]
    var i = 8
    while i + 8 <= png.count {
        let len = Int(png[i]) << 24 | Int(png[i + 1]) << 16 | Int(png[i + 2]) << 8 | Int(png[i + 3])
        let type = String(decoding: png[(i + 4)..<(i + 8)], as: UTF8.self)
        guard i + 12 + len <= png.count else { break }
        if out[type] == nil { out[type] = Array(png[(i + 8)..<(i + 8 + len)]) }
        i += 12 + len
    }
    return out
}
