// The editor page's static files. They are served only from an allow-list made when the server
// starts: the copy built into techo (TechoResources), held in memory, or, when a folder is
// given, the regular files under it (symbolic links and hidden files left out), each read fresh
// from disk when asked for. A request path is looked up in that list as a string, so `..`,
// percent-encoded dots, absolute paths and links never reach the file system.
import Foundation
import TechoResources

/// The editor's files, by the URL path that serves them.
public struct EditorFiles: Sendable {
    /// The folder the files come from, or nil when they are the copy built into techo.
    public let folder: URL?
    /// URL path (`/index.html`, `/tools/pen.js`) → file.
    let files: [String: Source]

    /// Where one file's bytes are.
    enum Source: Sendable {
        /// A file on disk, read when asked for (so an edit shows on reload).
        case disk(URL)
        /// The built-in copy, decoded once when the server starts.
        case memory([UInt8])
    }

    /// Files larger than this are not listed (the editor is small text files). 4 MiB.
    static let maxFileBytes = 4 << 20

    public init(folder: URL?) {
        self.folder = folder
        var files: [String: Source] = [:]
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
                        files[prefix + "/" + name] = .disk(url)
                    }
                }
            }
        } else {
            for name in BuiltinResources.names(in: "editor") {
                if let bytes = BuiltinResources.file("editor/" + name) { files["/" + name] = .memory(bytes) }
            }
        }
        self.files = files
    }

    /// The folder to serve from disk: `override` when given; else `$TECHO_RESOURCES/editor` when
    /// that folder exists; else nil, which serves the copy built into techo.
    public static func locate(override: String?) -> URL? {
        if let override { return URL(fileURLWithPath: override).standardizedFileURL }
        return BuiltinResources.overrideFolder("editor")
    }

    /// Whether there is no file to serve (an empty folder, or a build without the editor).
    var isEmpty: Bool { files.isEmpty }

    /// The response for GET `path`, or nil when it is not one of the editor's files.
    func response(for path: String) -> HTTPResponse? {
        let key = path == "/" ? "/index.html" : path
        let bytes: [UInt8]
        switch files[key] {
        case .disk(let url)?:
            guard let data = FileManager.default.contents(atPath: url.path) else { return nil }
            bytes = [UInt8](data)
        case .memory(let b)?: bytes = b
        case nil: return nil
        }
        return HTTPResponse(
            status: 200,
            headers: [
                ("Content-Type", EditorFiles.contentType(key)), ("Cache-Control", "no-cache"),
                ("X-Content-Type-Options", "nosniff"),
            ],
            body: .bytes(bytes))
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
