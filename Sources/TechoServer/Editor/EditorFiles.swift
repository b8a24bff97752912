// The editor page's static files. They are served only from an allow-list made when the server
// starts: the regular files under the editor folder (symbolic links and hidden files left out),
// each read fresh from disk when asked for. A request path is looked up in that list as a
// string, so `..`, percent-encoded dots, absolute paths and links never reach the file system.
import Foundation

/// The editor's files, by the URL path that serves them.
public struct EditorFiles: Sendable {
    /// The folder the files come from, or nil when none was found.
    public let folder: URL?
    /// URL path (`/index.html`, `/tools/pen.js`) → file.
    let files: [String: URL]

    /// Files larger than this are not listed (the editor is small text files). 4 MiB.
    static let maxFileBytes = 4 << 20

    public init(folder: URL?) {
        self.folder = folder
        var files: [String: URL] = [:]
        if let folder {
            let fm = FileManager.default
            var stack = [("", folder)]
            while let (prefix, dir) = stack.popLast(), files.count < 2000 {
                for name in ((try? fm.contentsOfDirectory(atPath: dir.path)) ?? []).sorted() where !name.hasPrefix(".") {
                    let url = dir.appendingPathComponent(name)
                    guard let a = try? fm.attributesOfItem(atPath: url.path), let type = a[.type] as? FileAttributeType else { continue }
                    if type == .typeDirectory, prefix.split(separator: "/").count < 8 {
                        stack.append((prefix + "/" + name, url))
                    } else if type == .typeRegular, ((a[.size] as? NSNumber)?.intValue ?? 0) <= EditorFiles.maxFileBytes {
                        files[prefix + "/" + name] = url
                    }
                }
            }
        }
        self.files = files
    }

    /// The folder to serve: `override` when given; else `$TECHO_RESOURCES/editor`; else the first
    /// `Resources/editor` found walking up from the executable (a build inside the repository);
    /// else `share/techo/editor` beside an installed binary (`PREFIX/bin/techo`).
    public static func locate(override: String?) -> URL? {
        let fm = FileManager.default
        if let override { return URL(fileURLWithPath: override).standardizedFileURL }
        if let env = ProcessInfo.processInfo.environment["TECHO_RESOURCES"] {
            let u = URL(fileURLWithPath: env).appendingPathComponent("editor")
            if fm.fileExists(atPath: u.appendingPathComponent("index.html").path) { return u }
        }
        guard let exe = Bundle.main.executableURL?.resolvingSymlinksInPath() else { return nil }
        var dir = exe.deletingLastPathComponent()
        for _ in 0..<8 {
            for candidate in ["Resources/editor", "share/techo/editor"] {
                let u = dir.appendingPathComponent(candidate)
                if fm.fileExists(atPath: u.appendingPathComponent("index.html").path) { return u }
            }
            dir = dir.deletingLastPathComponent()
        }
        return nil
    }

    /// The response for GET `path`, or nil when it is not one of the editor's files.
    func response(for path: String) -> HTTPResponse? {
        let key = path == "/" ? "/index.html" : path
        guard let url = files[key], let data = FileManager.default.contents(atPath: url.path) else { return nil }
        return HTTPResponse(
            status: 200,
            headers: [
                ("Content-Type", EditorFiles.contentType(key)), ("Cache-Control", "no-cache"),
                ("X-Content-Type-Options", "nosniff"),
            ],
            body: .bytes([UInt8](data)))
    }

    static func contentType(_ path: String) -> String {
        switch (path as NSString).pathExtension.lowercased() {
        case "html": return "text/html; charset=utf-8"
        case "js", "mjs": return "text/javascript; charset=utf-8"
        case "css": return "text/css; charset=utf-8"
        case "json": return "application/json; charset=utf-8"
        case "svg": return "image/svg+xml"
        case "png": return "image/png"
        case "jpg", "jpeg": return "image/jpeg"
        case "woff2": return "font/woff2"
        case "ico": return "image/x-icon"
        case "txt", "md": return "text/plain; charset=utf-8"
        default: return "application/octet-stream"
        }
    }
}
