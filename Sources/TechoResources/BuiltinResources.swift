// The files of Resources/ that techo carries inside its binary: the editor page and the built-in
// templates. The EmbedResources build plugin writes them into this module at build time, so a
// `techo` copied anywhere on its own still has them (docs/decisions/install.md). The one
// override, for people working on those files, is `$TECHO_RESOURCES`, read from disk.
import Foundation

/// techo's own files, built into the binary, by their path under `Resources/`.
///
/// The bytes are kept as base64 text in the binary and decoded when asked for.
public enum BuiltinResources {
    /// The built-in file at `path` under `Resources/` (`editor/index.html`,
    /// `templates/weekly.json`), or nil when there is none.
    ///
    /// - Complexity: O(size of the file): it is decoded anew on each call, so callers that serve
    ///   a file many times keep the bytes.
    public static func file(_ path: String) -> [UInt8]? {
        guard let i = index[path] else { return nil }
        let text = embedded[i].base64
        guard let data = Data(base64Encoded: text.withUTF8Buffer { String(decoding: $0, as: UTF8.self) }) else {
            preconditionFailure("techo-embed wrote bad base64 for Resources/\(path)")
        }
        return [UInt8](data)
    }

    /// The paths, relative to `folder`, of every built-in file under it (subfolders included),
    /// sorted: `names(in: "editor")` is `["api.js", …, "tools/select.js", "view.js"]`; `names(in: "")`
    /// is every path. Empty for a folder that is not built in.
    public static func names(in folder: String) -> [String] {
        let prefix = folder.isEmpty || folder.hasSuffix("/") ? folder : folder + "/"
        return embedded.map(\.path).filter { $0.hasPrefix(prefix) }.map { String($0.dropFirst(prefix.count)) }
    }

    /// The folder to read `Resources/FOLDER` from instead of the built-in copy:
    /// `$TECHO_RESOURCES/FOLDER` when the variable is set and that folder exists, else nil.
    /// Meant for working on the editor or the templates without rebuilding techo.
    public static func overrideFolder(_ folder: String, environment: [String: String] = ProcessInfo.processInfo.environment) -> URL? {
        guard let root = environment["TECHO_RESOURCES"], !root.isEmpty else { return nil }
        let url = URL(fileURLWithPath: root).appendingPathComponent(folder)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue else { return nil }
        return url
    }

    /// Path under `Resources/` → its position in `embedded`.
    static let index: [String: Int] = Dictionary(embedded.enumerated().map { ($0.element.path, $0.offset) }, uniquingKeysWith: { first, _ in first })
}

#if TECHO_RESOURCES_ON_DISK
    extension BuiltinResources {
        /// Nothing is built in: the instrumented fuzzing build cannot run the embedding tool, and
        /// reads Resources/ from disk through `TECHO_RESOURCES` instead (scripts/fuzz.sh sets it).
        static let embedded: [(path: String, base64: StaticString)] = []
    }
#endif
