// The editor's request handling as a fuzz target: each input is one HTTP request (a request
// line, headers, a blank line, the body), read by the server's own head parser (RequestHead,
// as the connection gate reads it, raw and then as a client would send it), then screened and
// answered by a real `EditorServer` on a small journal, exactly as the daemon hands requests to it. Before each input the journal's
// files are put back as they were, so an input means the same thing every time it runs.
//
// Besides "never trap, hang or allocate without bound", two things must hold for every input:
// - no request makes the server fail (a 5xx): what a browser sends wrongly is a 4xx naming it;
// - a refused request (any 4xx) leaves every file of the journal byte for byte as it was.
import Foundation
import TechoCodecs
import TechoCommands
import TechoModel
import TechoRaster
import TechoServer

#if canImport(Glibc)
    import Glibc
#endif

/// The fuzz journal, served on 127.0.0.1.
final class EditorFuzzJournal {
    let journal: FuzzJournalFolder
    let server: EditorServer
    let token: String

    init(scratch: URL) throws {
        journal = try FuzzJournalFolder(scratch: scratch, name: "editor")
        let editor = journal.root.appendingPathComponent("editor-files")
        try FileManager.default.createDirectory(at: editor, withIntermediateDirectories: true)
        try Data("<!doctype html><title>editor</title>".utf8).write(to: editor.appendingPathComponent("index.html"))
        (server, token) = try journal.serve(editorFolder: editor)
    }

    /// Puts the live journal back; returns the paths that differed.
    func restore() -> [String] { journal.restore() }
}

/// An input's bytes as a client would send them: `METHOD TARGET` (` HTTP/1.1` added when the
/// line has no version), header lines `name: value`, an empty line, the body; lines may end in
/// LF alone (they are sent with CRLF). Host and token are added unless the input sets them.
func editorWireBytes(_ bytes: [UInt8], port: UInt16, token: String) -> [UInt8] {
    var lines: [[UInt8]] = []
    var body: [UInt8] = []
    var start = 0, i = 0
    while i < bytes.count {
        if bytes[i] == 0x0A {
            var line = Array(bytes[start..<i])
            start = i + 1
            if line.last == 0x0D { line.removeLast() }
            if line.isEmpty {
                body = Array(bytes[start...])
                break
            }
            lines.append(line)
        }
        i += 1
    }
    if i == bytes.count, start < bytes.count { lines.append(Array(bytes[start...])) }
    if lines.isEmpty { lines = [Array("GET /".utf8)] }
    let first = String(decoding: lines[0], as: UTF8.self)
    if !first.hasSuffix(" HTTP/1.1") && !first.hasSuffix(" HTTP/1.0") { lines[0] += Array(" HTTP/1.1".utf8) }
    let names = Set(lines.dropFirst().map { String(decoding: $0.prefix { $0 != UInt8(ascii: ":") }, as: UTF8.self).lowercased() })
    if !names.contains("host") { lines.append(Array("Host: 127.0.0.1:\(port)".utf8)) }
    if !names.contains("x-techo-token") { lines.append(Array("X-Techo-Token: \(token)".utf8)) }
    return lines.flatMap { $0 + [0x0D, 0x0A] } + [0x0D, 0x0A] + body
}

extension Targets {
    nonisolated(unsafe) static var editorJournal: EditorFuzzJournal?

    static let editorTokens = [
        "GET ", "POST ", "PATCH ", "DELETE ", "HEAD ", "/api/", "journal", "events", "undo", "redo", "pages", "/p1", "/p2",
        "/elements", "/text-1", "/image-1", "/washi-1", "/ink-1", "/render", "/gesture", "/draw", "/background", "/clear",
        "/move", "/flip", "/restack", "/export", ".png", "journal.pdf", "?scale=", "&without=", "?type=image", "?type=photo",
        "&name=", "&x=", "&y=", "?image=", "&mode=tile", "&opacity=", "\nHost: ", "\nOrigin: http://", "\nCookie: techo_page_1=", "\r\n", "Content-Length: ",
        "Transfer-Encoding: chunked", " HTTP/1.0", "%2f", "%2e",
        "\nX-Techo-Token: ", "\n\n", "%2e%2e/", "%00", "\"element\"", "\"events\"", "\"gesture\"", "\"state\"", "\"began\"", "\"changed\"", "\"ended\"",
        "\"translation\"", "\"location\"", "\"rotation\"", "\"doubleTap\"", "\"pinch\"", "\"tool\"", "\"pencil\"",
        "\"eraser\"", "\"points\"", "\"width\"", "\"color\"", "\"type\"", "\"text\"",
        "\"washi\"", "\"from\"", "\"to\"", "\"at\"", "\"opacity\"", "\"hidden\"", "\"scale\"", "\"rotate\"", "\"axis\"", "\"by\"",
        "\"top\"", "\"paper\"", "\"pattern\"", "\"what\"", "\"all\"", "\"template\"", "\"after\"", "\"frame\"", "\"shadow\"",
        "1e308", "-0", "NaN", "null", "true", "[0,0]", "99999999",
    ]

    /// The editor server's request handling, route by route (docs/editor-api.md).
    static func editor(scratch: URL) -> FuzzTarget {
        let seeds = [
            "GET /api/journal", "GET /api/pages/p1", "GET /api/pages/p1/render?scale=0.25",
            "GET /api/pages/p1/render?scale=0.3&without=image-1", "GET /api/pages/p1/elements/text-1/render?scale=0.5",
            "GET /api/export/pages/p2.png?scale=0.1", "GET /", "GET /../../etc/passwd", "HEAD /api/journal",
            "POST /api/undo", "POST /api/redo", "POST /api/pages\n\n{\"template\":\"travel-day\",\"after\":\"p1\"}", "POST /api/pages\n\n{}",
            "DELETE /api/pages/p2", "POST /api/pages/p2/move\n\n{\"to\":0}",
            "POST /api/pages/p1/gesture\n\n{\"element\":\"image-1\",\"events\":[{\"gesture\":\"pinch\",\"state\":\"began\",\"scale\":1.5,\"location\":[100,80]},{\"gesture\":\"rotation\",\"state\":\"changed\",\"rotation\":0.5},{\"gesture\":\"pan\",\"state\":\"changed\",\"translation\":[3,4]},{\"gesture\":\"pan\",\"state\":\"ended\",\"translation\":[3,4]},{\"gesture\":\"doubleTap\"}]}",
            "POST /api/pages/p1/gesture\n\n{\"element\":\"text-1\",\"events\":[{\"gesture\":\"pan\",\"state\":\"cancelled\",\"translation\":[1,2]}]}",
            "POST /api/pages/p1/draw\n\n{\"tool\":\"pencil\",\"color\":\"#336699\",\"width\":4,\"points\":[[10,10,0.2],[50,40,0.9],[90,20]]}",
            "POST /api/pages/p1/draw\n\n{\"tool\":\"eraser\",\"width\":12,\"points\":[[20,20],[80,60]]}",
            "POST /api/pages/p1/draw\n\n{\"tool\":\"ellipse\",\"from\":[10,10],\"to\":[90,70],\"width\":3,\"fill\":\"#ff000080\"}",
            "POST /api/pages/p1/draw\n\n{\"tool\":\"dash\",\"from\":[10,90],\"to\":[190,95],\"width\":2,\"dash\":[6,3],\"opacity\":0.7}",
            "POST /api/pages/p1/elements\n\n{\"type\":\"text\",\"text\":\"hello\",\"size\":20,\"at\":[50,50],\"rotate\":10}",
            "POST /api/pages/p1/elements\n\n{\"type\":\"washi\",\"from\":[0,0],\"to\":[100,20],\"width\":12,\"color\":\"#a0c0e0cc\"}",
            "PATCH /api/pages/p1/elements/text-1\n\n{\"text\":\"again\",\"size\":30,\"opacity\":0.5,\"maxWidth\":100}",
            "PATCH /api/pages/p1/elements/image-1\n\n{\"at\":[20,30],\"scale\":2,\"rotate\":-45,\"hidden\":true}",
            "POST /api/pages/p1/elements/image-1/flip\n\n{\"axis\":\"v\"}",
            "POST /api/pages/p1/elements/washi-1/restack\n\n{\"by\":-1}", "POST /api/pages/p1/elements/text-1/restack\n\n{\"to\":\"top\"}",
            "DELETE /api/pages/p1/elements/washi-1",
            "POST /api/pages/p1/background\n\n{\"color\":\"#fff8e0\",\"paper\":{\"pattern\":\"grid\",\"spacing\":20}}",
            "POST /api/pages/p1/background\n\n{\"color\":null,\"paper\":null,\"image\":null}",
            "POST /api/pages/p1/clear\n\n{\"what\":\"ink\"}", "POST /api/pages/p1/clear\n\n{\"what\":\"all\"}",
            "POST /api/pages/p1/gesture\nOrigin: http://evil.example\n\n{}", "GET /api/journal\nHost: rebind.example:80",
            "GET /api/journal?token=wrong\nX-Techo-Token: wrong",
        ].map { Array($0.utf8) }
        // Uploads carry a small picture's bytes after the blank line.
        var pixels: [UInt8] = []
        for i in 0..<(6 * 5) { pixels += [UInt8(i * 8), 200, 40, 255] }
        let png = (try? PNGEncoder.encode(Pixmap(width: 6, height: 5, straightRGBA: pixels), name: "up.png")) ?? []
        let uploads = [
            "POST /api/pages/p1/elements?type=image&name=up.png&x=40&y=40\n\n",
            "POST /api/pages/p1/elements?type=photo&name=up.png\n\n",
            "POST /api/pages/p1/background?image=up.png&mode=tile&opacity=0.5\n\n",
        ].map { Array($0.utf8) + png }
        return FuzzTarget(
            name: "editor", summary: "the editor server's requests (techo serve): screening, routes, bodies, uploads",
            seeds: seeds + uploads, extensions: [], dictionary: editorTokens.map { Array($0.utf8) }, maxLength: 64 << 10,
            run: { bytes in
                if Targets.editorJournal == nil {
                    do { Targets.editorJournal = try EditorFuzzJournal(scratch: scratch) } catch {
                        fatalError("the editor target's journal could not be made: \(error)")
                    }
                }
                let j = Targets.editorJournal!
                // The server's own head parser (the gate in front of libmicrohttpd) reads the
                // input's bytes as they are, and then as a client would send them.
                if case .complete(_, let length) = RequestHead.parse(bytes), length > bytes.count {
                    fatalError("a head of \(length) bytes was read from \(bytes.count)")
                }
                let wire = editorWireBytes(bytes, port: j.server.port, token: j.token)
                var request: HTTPRequest
                switch RequestHead.parse(wire) {
                case .incomplete: return "head incomplete"
                case .refused(let status, _, _, _):
                    guard [400, 411, 431, 505].contains(status) else { fatalError("the head parser refused with \(status)") }
                    return "head \(status)"
                case .complete(let parsed, let length):
                    request = parsed
                    request.body = Array(wire[length...])
                }
                if request.path.unicodeScalars.contains(where: { $0.value < 0x20 }) || request.path.contains("/../") {
                    fatalError("the head parser let through the path \(request.path.debugDescription)")
                }
                var status: Int
                let (refusal, limit) = j.server.screen(request)
                if let r = refusal {
                    status = r.status
                } else if request.body.count > limit {
                    status = 413  // the daemon answers this before the body reaches a route
                } else {
                    let r = j.server.respond(to: request)
                    status = r.status
                    if status >= 500, case .bytes(let b) = r.body {
                        fatalError("\(request.method) \(request.path) answered \(status): \(String(decoding: b.prefix(300), as: UTF8.self))")
                    }
                }
                let changed = j.restore()
                if status >= 400, !changed.isEmpty {
                    fatalError("\(request.method) \(request.path) was refused with \(status) but changed \(changed.joined(separator: ", "))")
                }
                let known = ["GET", "HEAD", "POST", "PATCH", "DELETE"].contains(request.method)
                return "\(known ? request.method : "other") \(request.path.split(separator: "/").prefix(4).count) \(status)"
            })
    }
}
