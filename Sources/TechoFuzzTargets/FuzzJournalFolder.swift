// The small journal two fuzz targets change (editor, operations): made by techo commands, kept
// as a pristine copy, and put back before each input so an input means the same every time.
import Foundation
import TechoCodecs
import TechoCommands
import TechoRaster
import TechoServer

/// A page holding a text, a picture, washi and ink, and a second page, in `scratch/NAME/`.
struct FuzzJournalFolder {
    let root: URL
    let pristine: URL
    let live: URL
    /// The sticker picture the journal was made with, for targets that add it again.
    let sticker: URL
    /// The pristine journal's files by path relative to the journal, and their bytes.
    let files: [String: [UInt8]]

    init(scratch: URL, name: String) throws {
        root = scratch.appendingPathComponent(name)
        try? FileManager.default.removeItem(at: root)
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        pristine = root.appendingPathComponent("pristine.techo")
        live = root.appendingPathComponent("live.techo")
        var pixels: [UInt8] = []
        for i in 0..<(24 * 16) { pixels += [UInt8(i % 256), 90, 200, i % 7 == 0 ? 0 : 255] }
        let png = try PNGEncoder.encode(Pixmap(width: 24, height: 16, straightRGBA: pixels), name: "sticker.png")
        sticker = root.appendingPathComponent("sticker.png")
        try Data(png).write(to: sticker)
        let j = pristine.path
        for args in [
            ["init", j, "--title", "Fuzz", "--size", "300x200", "--dpi", "100"],
            ["add", "text", j, "p1", "Fuzz 京都", "--at", "60,40"],
            ["add", "image", j, "p1", sticker.path, "--at", "150,100"],
            ["add", "washi", j, "p1", "--from", "10,150", "--to", "200,160"],
            ["draw", j, "p1", "--tool", "pencil", "--points", "20,20,0.5 80,60,1 120,30"],
            ["page", "add", j],
        ] {
            var err = ""
            let code = Techo.main(["techo"] + args, io: CommandIO(out: { _ in }, err: { err += $0 }))
            guard code == 0 else { throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: "techo \(args[0]): \(err)"]) }
        }
        files = try FuzzJournalFolder.read(pristine)
        try FileManager.default.copyItem(at: pristine, to: live)
    }

    /// Every regular file under `folder` but the lock, by relative path.
    static func read(_ folder: URL) throws -> [String: [UInt8]] {
        var out: [String: [UInt8]] = [:]
        guard let e = FileManager.default.enumerator(atPath: folder.path) else { return out }
        for case let rel as String in e where rel != ".lock" {
            var isDir: ObjCBool = false
            let path = folder.appendingPathComponent(rel).path
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDir), !isDir.boolValue else { continue }
            out[rel] = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        }
        return out
    }

    /// Puts the live journal's files back as the pristine ones are; returns the paths that differed.
    func restore() -> [String] {
        let now = (try? FuzzJournalFolder.read(live)) ?? [:]
        var changed: [String] = []
        for (rel, bytes) in now where files[rel] != bytes {
            changed.append(rel)
            try? FileManager.default.removeItem(at: live.appendingPathComponent(rel))
        }
        for (rel, bytes) in files where now[rel] != bytes {
            if now[rel] == nil { changed.append(rel) }
            let url = live.appendingPathComponent(rel)
            try? FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try? Data(bytes).write(to: url)
        }
        return changed.sorted()
    }

    /// An editor server over the live journal on a free port of 127.0.0.1, serving `editorFolder`
    /// (nil: the built-in page), that never looks at the files by itself; and its token.
    func serve(editorFolder: URL?) throws -> (server: EditorServer, token: String) {
        var options = ServerOptions()
        options.port = 0
        options.editorFolder = editorFolder
        options.watchInterval = 3600
        return (try EditorServer(journal: live, options: options), options.token)
    }
}
