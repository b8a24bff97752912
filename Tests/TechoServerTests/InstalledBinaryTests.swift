// techo installed anywhere: scripts/install.sh (what `make install` runs) puts the built binary
// in a prefix, the prefix is moved somewhere else, and that lone binary, run outside the
// repository with no TECHO_RESOURCES, still finds its built-in templates and serves its editor.
import Foundation
import TechoTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite struct InstalledBinaryTests {
    /// The checkout these tests were built from.
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// This process's environment without `TECHO_RESOURCES`, so nothing can be read from disk.
    static var environment: [String: String] {
        var env = ProcessInfo.processInfo.environment
        env["TECHO_RESOURCES"] = nil
        return env
    }

    /// A fresh scratch folder outside the repository.
    static func scratch(_ name: String) throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("techo-install-\(name)-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let real = dir.resolvingSymlinksInPath().path, repo = repository.resolvingSymlinksInPath().path
        try #require(!real.hasPrefix(repo + "/"), "the scratch folder \(real) must be outside the repository \(repo)")
        return dir
    }

    /// Runs `scripts/install.sh BIN_DIR PREFIX` in `folder`, BIN_DIR being where the `techo`
    /// beside the tests was built, with DESTDIR set to `destdir` when given.
    static func install(prefix: String, destdir: URL? = nil, in folder: URL) throws -> ChildResult {
        var env = environment
        env["DESTDIR"] = destdir?.path
        let script = repository.appendingPathComponent("scripts/install.sh")
        let bin = BuiltProducts.url("techo").deletingLastPathComponent()
        return try ChildProcess.run(URL(fileURLWithPath: "/bin/bash"), [script.path, bin.path, prefix], in: folder, environment: env)
    }

    @Test func aMovedInstallFindsItsTemplatesAndServesItsEditor() throws {
        let root = try InstalledBinaryTests.scratch("moved")
        defer { try? FileManager.default.removeItem(at: root) }
        let prefix = root.appendingPathComponent("prefix")
        let installed = try InstalledBinaryTests.install(prefix: prefix.path, in: root)
        #expect(installed.code == 0, "\(installed.err)")
        #expect(FileManager.default.isExecutableFile(atPath: prefix.appendingPathComponent("bin/techo").path))
        #expect(try FileManager.default.contentsOfDirectory(atPath: prefix.path) == ["bin"], "the binary is the only thing installed")

        // Moved away from where it was installed (and from the build), as a copied binary would be.
        let moved = root.appendingPathComponent("elsewhere")
        try FileManager.default.moveItem(at: prefix, to: moved)
        let techo = moved.appendingPathComponent("bin/techo")
        let work = root.appendingPathComponent("work")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        let env = InstalledBinaryTests.environment

        let initialized = try ChildProcess.run(techo, ["init", "J"], in: work, environment: env)
        #expect(initialized.code == 0, "\(initialized.err)")
        let added = try ChildProcess.run(techo, ["page", "add", "J", "--template", "weekly"], in: work, environment: env)
        #expect(added.code == 0, "the built-in template is found: \(added.err)")
        #expect(added.out == "p2\n")

        let p = Process()
        p.executableURL = techo
        p.arguments = ["serve", "J", "--port", "0"]
        p.currentDirectoryURL = work
        p.environment = env
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        p.standardInput = FileHandle.nullDevice
        try p.run()
        defer { if p.isRunning { kill(p.processIdentifier, SIGKILL) } }
        let url = try ServerProcess.firstLine(of: out)
        let comps = try #require(URLComponents(string: url), "\(url)")
        let port = UInt16(try #require(comps.port))
        let token = try #require(comps.queryItems?.first { $0.name == "token" }?.value)
        // The URL as printed, the token in its query, as a browser first opens it.
        let page = try Client(port: port, token: nil).get("/?token=\(token)")
        #expect(page.status == 200, "\(page.text)")
        #expect(page.header("content-type") == "text/html; charset=utf-8")
        #expect(page.text.contains("<script type=\"module\" src=\"editor.js\"></script>"), "the editor's index.html: \(page.text.prefix(200))")
        let module = try Client(port: port, token: token).get("/tools/select.js")
        #expect(module.status == 200, "\(module.text)")
        #expect(module.header("content-type") == "text/javascript; charset=utf-8")
        #expect(module.text.contains("export "), "an ES module")

        // SIGTERM right after the editor's first page: its sticker atlas is still being drawn in
        // the background then, and the server waits for that before it exits 0.
        kill(p.processIdentifier, SIGTERM)
        p.waitUntilExit()
        let log = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let how = p.terminationReason == .exit ? "exit" : "signal"
        #expect(p.terminationReason == .exit && p.terminationStatus == 0, "ended by \(how) \(p.terminationStatus): \(log)")
        #expect(!log.contains("not found"), "\(log)")
    }

    @Test func destdirStagesTheInstallUnderAnotherRoot() throws {
        let root = try InstalledBinaryTests.scratch("destdir")
        defer { try? FileManager.default.removeItem(at: root) }
        let stage = root.appendingPathComponent("stage")
        let r = try InstalledBinaryTests.install(prefix: "/usr/local", destdir: stage, in: root)
        #expect(r.code == 0, "\(r.err)")
        #expect(FileManager.default.isExecutableFile(atPath: stage.appendingPathComponent("usr/local/bin/techo").path))
        let relative = try InstalledBinaryTests.install(prefix: "relative/prefix", destdir: stage, in: root)
        #expect(relative.code == 64 && relative.err.contains("absolute"), "\(relative.err)")
    }
}
