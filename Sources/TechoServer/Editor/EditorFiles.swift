// The editor page's static files. They are served only from an allow-list made when the server
// starts: the copy built into techo (TechoResources), held in memory, or, when a folder is
// given, the regular files under it (symbolic links and hidden files left out), each read fresh
// from disk when asked for. A request path is looked up in that list as a string, so `..`,
// percent-encoded dots, absolute paths and links never reach the file system. A listed file is
// read by walking from the folder opened at start-up, one name at a time with O_NOFOLLOW, so a
// file or folder swapped for a link after start-up is not followed (it is a 404), and only a
// regular file is read (a FIFO put in its place cannot make the read wait).
import Foundation
import TechoResources

#if canImport(Glibc)
    import Glibc
#endif

/// The editor's files, by the URL path that serves them.
public struct EditorFiles: Sendable {
    /// The folder the files come from, or nil when they are the copy built into techo.
    public let folder: URL?
    /// URL path (`/index.html`, `/tools/pen.js`) → file.
    let files: [String: Source]

    /// Where one file's bytes are.
    enum Source: Sendable {
        /// A file on disk by its names below the folder, read when asked for (so an edit shows
        /// on reload).
        case disk([String])
        /// The built-in copy, decoded once when the server starts.
        case memory([UInt8])
    }

    /// Files larger than this are not listed (the editor is small text files). 4 MiB.
    static let maxFileBytes = 4 << 20

    /// The folder, opened when the server starts; every file is read relative to it.
    let directory: Directory?

    /// An open directory, closed when the last copy of the files goes.
    final class Directory: @unchecked Sendable {
        let fd: Int32
        init?(_ url: URL) {
            fd = open(url.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            if fd < 0 { return nil }
        }
        deinit { close(fd) }

        /// The bytes of the regular file at `names` below this directory, or nil when any name
        /// on the way is a link, the file is not a regular file, or it is over `limit` bytes.
        func read(_ names: [String], limit: Int) -> [UInt8]? {
            guard let last = names.last else { return nil }
            var dir = fd
            defer { if dir != fd { close(dir) } }
            for name in names.dropLast() {
                let next = openat(dir, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
                if dir != fd { close(dir) }
                dir = next
                if dir < 0 { return nil }
            }
            let file = openat(dir, last, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
            guard file >= 0 else { return nil }
            defer { close(file) }
            var st = stat()
            guard fstat(file, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG, st.st_size <= limit else { return nil }
            var bytes = [UInt8](repeating: 0, count: Int(st.st_size))
            var n = 0
            while n < bytes.count {
                let got = bytes[n...].withUnsafeMutableBytes { Glibc.read(file, $0.baseAddress, $0.count) }
                if got < 0 && errno == EINTR { continue }
                if got <= 0 { break }
                n += got
            }
            return Array(bytes[..<n])
        }
    }

    public init(folder: URL?) {
        self.folder = folder
        var files: [String: Source] = [:]
        directory = folder.flatMap(Directory.init)
        if let folder, directory != nil {
            let fm = FileManager.default
            var stack = [("", folder)]
            while let (prefix, dir) = stack.popLast(), files.count < 2000 {
                for name in ((try? fm.contentsOfDirectory(atPath: dir.path)) ?? []).sorted() where !name.hasPrefix(".") {
                    let url = dir.appendingPathComponent(name)
                    guard let a = try? fm.attributesOfItem(atPath: url.path), let type = a[.type] as? FileAttributeType else { continue }
                    if type == .typeDirectory, prefix.split(separator: "/").count < 8 {
                        stack.append((prefix + "/" + name, url))
                    } else if type == .typeRegular, ((a[.size] as? NSNumber)?.intValue ?? 0) <= EditorFiles.maxFileBytes {
                        files[prefix + "/" + name] = .disk((prefix + "/" + name).split(separator: "/").map(String.init))
                    }
                }
            }
        } else if folder == nil {
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
        case .disk(let names)?:
            guard let b = directory?.read(names, limit: EditorFiles.maxFileBytes) else { return nil }
            bytes = b
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
