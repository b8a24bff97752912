// What every browser test starts from: a small journal made by `techo` commands in a temporary
// folder, `techo serve` on port 0 over it (its URL read from the first line of its stdout), and a
// headless Chromium tab with the editor open.

import Foundation
import TechoCodecs
import TechoRaster
import TechoTestSupport

/// Runs the built `techo` binary.
enum Techo {
    /// The `techo` binary next to the test bundle (swift build puts every product in one folder).
    static let binary = BuiltProducts.url("techo")

    /// Runs `techo ARGS…` in `folder`; throws with its stderr when it fails.
    @discardableResult
    static func run(_ args: [String], in folder: URL) throws -> String {
        let r = try ChildProcess.run(binary, args, in: folder)
        guard r.code == 0 else { throw DevToolsError(description: "techo \(args.joined(separator: " ")) exited \(r.code): \(r.err)") }
        return r.out
    }
}

/// `techo serve` over a journal, stopped with SIGTERM.
final class Server {
    let pid: pid_t
    let url: String
    let log: URL
    /// The exit status once stopped (0 when SIGTERM let it finish cleanly).
    private(set) var exitStatus: Int32?

    /// `extra`: more arguments for `techo serve` (`--lan`, `--tls-cert` …).
    init(journal: URL, folder: URL, extra: [String] = []) throws {
        log = folder.appendingPathComponent("serve.log")
        let out = try Spawn.pipePair()
        let program = Techo.binary.path
        var args = [program, "serve", journal.path, "--port", "0"]
        // TECHO_TEST_EDITOR_DIR: the editor's files from a folder instead of those built in (a
        // change to them is then tried without rebuilding).
        if let dir = ProcessInfo.processInfo.environment["TECHO_TEST_EDITOR_DIR"], !dir.isEmpty { args += ["--editor-dir", dir] }
        args += extra
        do { pid = try Spawn.start(program, args, stdout: out.write, log: log.path) } catch {
            close(out.read); close(out.write)
            throw error
        }
        close(out.write)
        // The first stdout line is the URL with the token (§11); read it on another thread so a
        // server that never prints cannot hang the test, then keep draining stdout.
        let got = DispatchSemaphore(value: 0)
        final class Box: @unchecked Sendable { var line = [UInt8]() }
        let box = Box()
        let fd = out.read
        Thread {
            var byte: UInt8 = 0, signalled = false
            while read(fd, &byte, 1) == 1 {
                if signalled { continue }
                if byte == UInt8(ascii: "\n") { signalled = true; got.signal() } else if box.line.count < 4096 { box.line.append(byte) }
            }
            if !signalled { got.signal() }
            close(fd)
        }.start()
        let line = got.wait(timeout: .now() + 30) == .timedOut ? "" : String(decoding: box.line, as: UTF8.self)
        guard line.hasPrefix("http://") || line.hasPrefix("https://") else {
            kill(pid, SIGKILL)
            _ = Spawn.wait(pid, timeout: 5)
            let stderr = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            throw DevToolsError(description: "techo serve printed no URL (first line \(line.debugDescription)); its stderr: \(stderr)")
        }
        url = line.trimmingCharacters(in: .whitespaces)
    }

    /// SIGTERM: the server finishes what is in flight and exits 0 (§11).
    func stop() {
        guard exitStatus == nil else { return }
        kill(pid, SIGTERM)
        if let s = Spawn.wait(pid, timeout: 10) { exitStatus = s; return }
        kill(pid, SIGKILL)
        exitStatus = Spawn.wait(pid, timeout: 5) ?? -1
    }
}

/// A journal, its server, a browser and a tab with the editor open on page p1.
final class EditorFixture {
    let folder: URL
    let journal: URL
    let server: Server
    let browser: Chromium
    let tab: BrowserTab
    /// The test's pictures (Fixtures/).
    static let fixtures = Fixtures.url("Fixtures")

    /// The page the tests drive: 600x800 at 300 dpi, a dotted paper, the tomato sticker (id
    /// `tomato`), a text (id `title`) and one blue pencil stroke (ink layer `ink-1`).
    /// With `journal`, a copy of that journal instead (it is never changed).
    /// `serve`: more arguments for `techo serve`; `browserArguments`: more for Chromium.
    init(
        width: Int = 1440, height: Int = 900, touch: Bool = false, journal source: URL? = nil, serve: [String] = [], browserArguments: [String] = []
    ) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("techo-editor-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        journal = folder.appendingPathComponent("j.techo")
        let j = journal.path, tomato = EditorFixture.fixtures.appendingPathComponent("tomato.png").path
        if let source { try FileManager.default.copyItem(at: source, to: journal) }
        for args in source != nil
            ? []
            : [
                ["init", j, "--title", "Browser test", "--size", "600x800", "--background", "#f6f0e4", "--paper", "dots"],
                ["add", "image", j, "p1", tomato, "--id", "tomato", "--at", "200,250", "--scale", "1.5"],
                ["add", "text", j, "p1", "techo", "--id", "title", "--at", "420,120", "--size", "48", "--color", "#5b3a29"],
                ["draw", j, "p1", "--tool", "pencil", "--color", "#3d85c6", "--width", "8", "--points", "80,600 300,640 520,600"],
                ["page", "add", j],
            ]
        { try Techo.run(args, in: folder) }
        server = try Server(journal: journal, folder: folder, extra: serve)
        // A browser that does not come up on a loaded machine (its first renderer can stall)
        // gets one more try with a fresh profile before the test fails.
        var attempt = 0
        while true {
            attempt += 1
            var started: Chromium?
            do {
                let b = try Chromium(windowSize: (width, height), extraArguments: browserArguments)
                started = b
                let t = try BrowserTab(b, width: width, height: height, touch: touch)
                try t.open(server.url)
                browser = b
                tab = t
                break
            } catch {
                started?.shutdown()
                if attempt < 2 { continue }
                server.stop()
                throw error
            }
        }
    }

    deinit {
        tab.close()
        browser.shutdown()
        server.stop()
        try? FileManager.default.removeItem(at: folder)
    }

    // Reading the journal back, through the CLI.

    func element(_ id: String, page: String = "p1") throws -> [String: Any] {
        let text = try Techo.run(["show", journal.path, page, id, "--json"], in: folder)
        guard let o = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] else {
            throw DevToolsError(description: "techo show \(id) --json is not an object")
        }
        return o
    }

    func pageJSON(_ page: String = "p1") throws -> [String: Any] {
        let text = try Techo.run(["show", journal.path, page, "--json"], in: folder)
        guard let o = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] else {
            throw DevToolsError(description: "techo show \(page) --json is not an object")
        }
        return o
    }

    /// Polls the journal until `condition` holds (a change reaches the disk after the request).
    func waitForJournal(_ what: String, timeout: TimeInterval = 20, _ condition: () throws -> Bool) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if (try? condition()) == true { return }
            if Date() > deadline {
                tab.collectProblems()
                throw DevToolsError(description: "timed out after \(Int(timeout)) s waiting for the journal: \(what); page problems: \(tab.problems)")
            }
            usleep(40_000)
        }
    }

    // Where things are on screen.

    /// The client point of page point (x, y), by §11's rule for `[data-techo-page]`.
    func client(_ x: Double, _ y: Double) throws -> (Double, Double) {
        let b = try tab.box("[data-techo-page]")
        return (b.x + x * b.w / 600, b.y + y * b.h / 800)
    }

    /// A screenshot of the page element, one device pixel per CSS pixel.
    func pageShot() throws -> Data {
        let b = try tab.box("[data-techo-page]")
        return try tab.screenshot(x: b.x, y: b.y, w: b.w, h: b.h)
    }

    /// Compares a screenshot of the page element with `techo export --scale S` of page p1 at the
    /// scale the editor shows (over the common size; the two differ by at most a pixel); keeps
    /// both in the test artifacts folder as NAME-screen.png and NAME-export.png.
    func compareWithExport(_ shot: Data, name: String) throws -> ImageDiff {
        let scale = try tab.number("techoEditor.view.scale")
        let ref = folder.appendingPathComponent("\(name)-export.png")
        try Techo.run(["export", journal.path, "--page", "p1", "--scale", String(scale), "-o", ref.path], in: folder)
        let actual = try ImageDecoder.decode([UInt8](shot), name: "screenshot").pixels
        let expected = try ImageDecoder.decode([UInt8](try Data(contentsOf: ref)), name: ref.path).pixels
        guard abs(actual.width - expected.width) <= 1 && abs(actual.height - expected.height) <= 1 else {
            throw DevToolsError(description: "screenshot \(actual.width)x\(actual.height), export \(expected.width)x\(expected.height)")
        }
        let dir = Fixtures.artifactsDirectory("editor")
        try shot.write(to: dir.appendingPathComponent("\(name)-screen.png"))
        try? FileManager.default.removeItem(at: dir.appendingPathComponent("\(name)-export.png"))
        try FileManager.default.copyItem(at: ref, to: dir.appendingPathComponent("\(name)-export.png"))
        let w = min(actual.width, expected.width), h = min(actual.height, expected.height)
        return compareImages(crop(actual, w, h), crop(expected, w, h), tolerance: 8)
    }

    /// Waits until the editor shows the journal's current state (no refresh or change pending).
    func waitSettled() throws {
        try tab.waitFor(
            "window.techoEditor && !techoEditor.refreshing && techoEditor.inGesture === 0 && techoEditor.changesInFlight === 0",
            what: "the editor to settle")
    }
}

func number(_ v: Any?) -> Double? { (v as? NSNumber)?.doubleValue }
func point(_ v: Any?) -> (Double, Double)? {
    guard let a = v as? [NSNumber], a.count >= 2 else { return nil }
    return (a[0].doubleValue, a[1].doubleValue)
}
