// techo serve: the live editor for one journal, in a browser (docs/contract.md §11). The
// command's arguments are the CLI's business and the server's work the server's; this file,
// in the executable, is where the two meet, so neither imports the other.
import Foundation
import TechoCommands
import TechoEditing
import TechoModel
import TechoServer

#if canImport(Glibc)
    import Glibc
#endif

enum ServeCommand: TechoCommand {
    static let names = ["serve"]
    static let usage = "serve JOURNAL [--port N] [--host ADDR | --lan] [--tls-cert FILE --tls-key FILE] [--editor-dir DIR]"
    static let summary = "open the journal in the live editor (a local web page); prints its URL"
    static let discussion = """
        The first line on stdout is the editor's URL with a secret token; open it in a browser.
        Every request must carry the token (the page sends it with each request). Log lines go to
        stderr. Any --host but a loopback address is warned of: the editor speaks plain HTTP.
        --lan listens on every address of this machine, for a tablet or phone on the same network:
        the first line is then the URL at this machine's first network address; stderr lists the
        others and draws the first as a QR code (coloured black on white on a terminal).
        --tls-cert FILE --tls-key FILE serve HTTPS with that certificate (PEM, its chain after it)
        and its private key (PEM): what a tablet's browser needs for sharing and the clipboard on
        an address other than its own. The URL is then https://; plain HTTP is refused.
        Changes go through the same history as the CLI, so 'techo undo' undoes the browser's steps,
        and changes made with techo commands while the editor is open show up in it within 2 s.
        SIGINT (Ctrl+C) or SIGTERM finishes the requests in flight and exits 0.
        The editor's files are built into techo. --editor-dir DIR, else $TECHO_RESOURCES/editor
        when that folder exists, serves them from disk instead (for working on the editor).
        """
    static let options = [
        OptionSpec("port", value: "N", help: "port to listen on (default 7373; 0 takes any free port)"),
        OptionSpec("host", value: "ADDR", help: "address to listen on (default 127.0.0.1; an IPv4 or IPv6 address, or localhost)"),
        OptionSpec("lan", help: "listen on every network address, for a tablet or phone; prints a QR code of the URL"),
        OptionSpec("tls-cert", value: "FILE", help: "serve HTTPS with this certificate (PEM); needs --tls-key"),
        OptionSpec("tls-key", value: "FILE", help: "the certificate's private key (PEM)"),
        OptionSpec("editor-dir", value: "DIR", help: "serve the editor's files from this folder"),
    ]

    static func run(_ args: ParsedArguments, io: CommandIO) throws {
        guard args.positionals.count == 1 else {
            if args.positionals.isEmpty { throw UsageError("serve: missing JOURNAL") }
            let extra = args.positionals[1]
            throw UsageError("serve: unexpected argument '\(extra.text)' (argument \(extra.index))")
        }
        let journalArg = args.positionals[0]
        var options = ServerOptions()
        if let p = args.value("port") {
            guard let v = UInt16(p.text) else { throw UsageError("--port (argument \(p.index)): expected a port from 0 to 65535, got '\(p.text)'") }
            options.port = v
        }
        if let h = args.value("host") {
            options.host = h.text == "localhost" ? "127.0.0.1" : h.text
            var v4 = in_addr(), v6 = in6_addr()
            guard inet_pton(AF_INET, options.host, &v4) == 1 || inet_pton(AF_INET6, options.host, &v6) == 1 else {
                throw UsageError("--host (argument \(h.index)): expected an IPv4 or IPv6 address such as 127.0.0.1, got '\(h.text)'")
            }
        }
        if args.has("lan") {
            if let h = args.value("host") { throw UsageError("--host (argument \(h.index)) and --lan: choose one (--lan listens on every address)") }
            options.lan = true
        }
        options.tls = try tlsCredentials(args, io: io)
        if let d = args.value("editor-dir") {
            let folder = URL(fileURLWithPath: io.resolve(d.text))
            guard FileManager.default.fileExists(atPath: folder.appendingPathComponent("index.html").path) else {
                throw EditError(.notFound, "--editor-dir (argument \(d.index)): '\(d.text)' has no index.html")
            }
            options.editorFolder = folder
        }
        let err = io.err
        options.log = { line in err("techo serve: \(line)\n") }
        // SIGINT and SIGTERM are blocked in every thread (this runs before any thread starts, so
        // each inherits the mask) and taken with sigwait on this thread: a signal that comes at
        // any moment after this line stays pending until it is taken, so none is lost. (A dispatch
        // signal source, used before, registers its handler some time after it is resumed; a
        // SIGTERM sent in that window, as a test does right after the first requests on a busy
        // machine, was ignored and the server never stopped.)
        var stopSignals = sigset_t()
        sigemptyset(&stopSignals)
        sigaddset(&stopSignals, SIGINT)
        sigaddset(&stopSignals, SIGTERM)
        pthread_sigmask(SIG_BLOCK, &stopSignals, nil)
        // SIGPIPE from a browser that went away must not end the process.
        signal(SIGPIPE, SIG_IGN)
        let journalURL = URL(fileURLWithPath: io.resolve(journalArg.text))
        let server: EditorServer
        do {
            server = try EditorServer(journal: journalURL, options: options)
        } catch let e as StorageError {
            let missing = !FileManager.default.fileExists(atPath: journalURL.path)
            throw EditError(missing ? .notFound : .invalid, "\(journalArg.text): \(missing ? "no such journal" : e.message)")
        } catch let e as ServerStartError {
            throw EditError(.failure, e.description)
        }
        io.out("\(server.url)\n")
        for warning in options.warnings { io.err("techo serve: warning: \(warning)\n") }
        if options.lan { printLAN(server, io: io) }
        if !server.servesEditor {
            io.err("techo serve: warning: the editor's files were not found (see 'techo serve --help'); serving the API only\n")
        }
        io.err("techo serve: serving \(journalArg.text) on \(server.url.components(separatedBy: "?")[0]); Ctrl+C stops\n")
        var taken: Int32 = 0
        while sigwait(&stopSignals, &taken) != 0 {}
        io.err("techo serve: stopping: finishing the requests in flight\n")
        server.stop()
        io.err("techo serve: stopped\n")
    }

    /// The certificate and key of `--tls-cert` and `--tls-key`, read and checked for PEM; nil
    /// when neither is given.
    static func tlsCredentials(_ args: ParsedArguments, io: CommandIO) throws -> HTTPDaemon.TLSCredentials? {
        let cert = args.value("tls-cert"), key = args.value("tls-key")
        guard cert != nil || key != nil else { return nil }
        guard let cert, let key else {
            throw UsageError(cert == nil ? "--tls-key needs --tls-cert FILE (the certificate, PEM)" : "--tls-cert needs --tls-key FILE (its private key, PEM)")
        }
        func read(_ v: ArgumentToken, _ option: String, _ label: String) throws -> [UInt8] {
            let url = URL(fileURLWithPath: io.resolve(v.text))
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue else {
                throw EditError(.notFound, "--\(option) (argument \(v.index)): '\(v.text)': no such file")
            }
            let attributes = try? FileManager.default.attributesOfItem(atPath: url.path)
            guard let size = attributes?[.size] as? Int, size <= 1 << 20, let data = FileManager.default.contents(atPath: url.path) else {
                throw EditError(.invalid, "--\(option) (argument \(v.index)): '\(v.text)' cannot be read or is over 1 MiB")
            }
            let text = String(decoding: data, as: UTF8.self)
            guard text.contains("-----BEGIN ") && text.contains(label), !data.contains(0) else {
                throw EditError(.invalid, "--\(option) (argument \(v.index)): '\(v.text)' is not a PEM \(label.lowercased())")
            }
            return [UInt8](data)
        }
        return HTTPDaemon.TLSCredentials(certificate: try read(cert, "tls-cert", "CERTIFICATE"), key: try read(key, "tls-key", "PRIVATE KEY"))
    }

    /// The other URLs, and the first as a QR code, for `--lan`.
    static func printLAN(_ server: EditorServer, io: CommandIO) {
        guard !server.lanAddresses.isEmpty else {
            io.err("techo serve: warning: this machine has no network address other than loopback; the editor is at \(server.url)\n")
            return
        }
        for other in server.urls.dropFirst() { io.err("techo serve: also at \(other)\n") }
        do {
            let lines = try TerminalQR.lines(server.url, ansi: io.stderrIsTerminal)
            io.err("techo serve: open this on a tablet or phone on the same network (scan it):\n" + lines.joined(separator: "\n") + "\n")
        } catch {
            io.err("techo serve: warning: no QR code (\(error)); open the URL above by hand\n")
        }
    }
}
