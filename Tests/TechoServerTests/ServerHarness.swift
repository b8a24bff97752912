// A journal in a scratch folder with an editor server on 127.0.0.1, port 0, in this process.
import Foundation
import TechoCodecs
import TechoCommands
import TechoModel
import TechoRaster

@testable import TechoServer

final class ServedJournal {
    let dir: URL
    let journal: URL
    let editor: URL
    let server: EditorServer
    let token: String
    /// The lines the server logged.
    let log: LogLines
    var port: UInt16 { server.port }
    /// A client with the token.
    var client: Client { Client(port: port, token: token) }
    /// A client without the token.
    var stranger: Client { Client(port: port, token: nil) }

    init(_ name: String = #function, size: String = "400x300", port: UInt16 = 0, limits: HTTPDaemon.Limits = HTTPDaemon.Limits()) throws {
        let safe = name.filter { $0.isLetter || $0.isNumber }
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("techo-serve-\(safe)-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        journal = dir.appendingPathComponent("j.techo")
        editor = dir.appendingPathComponent("editor")
        try FileManager.default.createDirectory(at: editor.appendingPathComponent("tools"), withIntermediateDirectories: true)
        try Data("<!doctype html><title>editor</title>".utf8).write(to: editor.appendingPathComponent("index.html"))
        try Data("export const tool = 1;\n".utf8).write(to: editor.appendingPathComponent("tools/select.js"))
        try Data("secret".utf8).write(to: dir.appendingPathComponent("outside.txt"))
        try FileManager.default.createSymbolicLink(at: editor.appendingPathComponent("link.txt"), withDestinationURL: dir.appendingPathComponent("outside.txt"))
        try ServedJournal.techo(["init", journal.path, "--title", "Served", "--size", size, "--dpi", "100"])
        var options = ServerOptions()
        options.port = port
        options.editorFolder = editor
        options.watchInterval = 0.1
        options.limits = limits
        let log = LogLines()
        options.log = { log.append($0) }
        self.log = log
        server = try EditorServer(journal: journal, options: options)
        token = options.token
    }

    /// A served journal on a port below the kernel's ephemeral range (32768 and up), so no
    /// other test's server (they take port 0) and no outgoing connection can ever be given the
    /// same port: a test that checks a stopped server's port is free needs that.
    static func onAFixedPort(_ name: String = #function) throws -> ServedJournal {
        var lastError: Error?
        for k in 0..<64 {
            let candidate = UInt16(20000 + (Int(getpid()) * 7 + k * 131) % 12000)
            do { return try ServedJournal(name, port: candidate) } catch { lastError = error }
        }
        throw lastError ?? RawHTTPError(description: "no free port below 32000")
    }

    deinit {
        server.stop(grace: 5)
        try? FileManager.default.removeItem(at: dir)
    }

    /// Runs a techo command in this process, as the binary would; throws with its stderr on failure.
    @discardableResult
    static func techo(_ args: [String]) throws -> String {
        var out = "", err = ""
        let io = CommandIO(out: { out += $0 }, err: { err += $0 })
        let code = Techo.main(["techo"] + args, io: io)
        guard code == 0 else { throw RawHTTPError(description: "techo \(args.joined(separator: " ")) exited \(code): \(err)") }
        return out
    }

    @discardableResult
    func techo(_ args: String...) throws -> String { try ServedJournal.techo(args) }

    /// The stored page.
    func page(_ id: String = "p1") throws -> Page {
        guard let page = try JournalStore.open(journal).read().pages[id] else { throw StorageError(path: "pages/\(id).json", message: "no such page") }
        return page
    }

    func assets() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: journal.appendingPathComponent("assets").path)) ?? []).sorted()
    }

    func historyCount() throws -> Int { try JournalStore.open(journal).history().count }

    /// A small PNG sticker's bytes.
    static func png(_ w: Int = 40, _ h: Int = 20, rgba: (UInt8, UInt8, UInt8, UInt8) = (200, 30, 30, 255)) throws -> [UInt8] {
        let pm = Pixmap(width: w, height: h, straightRGBA: [UInt8]((0..<(w * h)).flatMap { _ in [rgba.0, rgba.1, rgba.2, rgba.3] }))
        return try PNGEncoder.encode(pm, name: "sticker.png")
    }
}

/// Log lines as a server writes them, from any thread.
final class LogLines: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [String] = []
    func append(_ line: String) { lock.lock(); stored.append(line); lock.unlock() }
    var lines: [String] { lock.lock(); defer { lock.unlock() }; return stored }
}

/// Parses a JSON response body.
func json(_ r: RawResponse) throws -> JSONValue { try JSONParser.parse(r.body) }

extension JSONValue {
    subscript(_ key: String) -> JSONValue? {
        if case .object(let o) = self { return o[key] }
        return nil
    }
    var string: String? { if case .string(let s) = self { return s }; return nil }
    var number: Double? { if case .number(let n) = self { return n }; return nil }
    var array: [JSONValue]? { if case .array(let a) = self { return a }; return nil }
}
