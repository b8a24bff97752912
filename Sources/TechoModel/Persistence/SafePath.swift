// Resolving user-given relative paths so they never leave their base folder: refuse absolute
// paths, `..`, NUL, and anything whose real path (after symlinks) is outside the base.

import Foundation

/// A path that would resolve outside its base folder, or could not be resolved.
public struct PathError: Error, Equatable, CustomStringConvertible, Sendable {
    /// The path as given.
    public var path: String
    /// Why it was refused.
    public var message: String
    public init(path: String, message: String) { self.path = path; self.message = message }
    public var description: String { "\"\(path)\": \(message)" }
}

/// Path rules for bundle and manifest paths.
public enum SafePath {
    /// Checks the text of a relative path: not empty, not absolute, no NUL, no `..` component.
    public static func checkRelative(_ path: String) throws {
        guard !path.isEmpty else { throw PathError(path: path, message: "empty path") }
        guard !path.contains("\0") else { throw PathError(path: path, message: "path contains a NUL byte") }
        guard !path.hasPrefix("/") && !path.hasPrefix("~") else {
            throw PathError(path: path, message: "absolute paths are not allowed; give a path relative to the folder")
        }
        guard !path.split(separator: "/").contains("..") else { throw PathError(path: path, message: "\"..\" is not allowed in paths") }
    }

    /// The real path of `base` (symlinks resolved).
    public static func realPath(_ url: URL) throws -> String {
        guard let r = realpath(url.path, nil) else {
            throw PathError(path: url.path, message: String(cString: strerror(errno)))
        }
        defer { free(r) }
        return String(cString: r)
    }

    /// Resolves `path` inside `base`: the file must exist and its real path must lie inside the
    /// base's real path.
    public static func resolve(_ path: String, in base: URL) throws -> URL {
        try checkRelative(path)
        let root = try realPath(base)
        let candidate = URL(fileURLWithPath: root).appendingPathComponent(path)
        let real: String
        do { real = try realPath(candidate) } catch let e as PathError {
            throw PathError(path: path, message: "cannot open: \(e.message)")
        }
        guard real.hasPrefix(root.hasSuffix("/") ? root : root + "/") else {
            throw PathError(path: path, message: "resolves outside \(base.lastPathComponent) (through a symbolic link)")
        }
        return URL(fileURLWithPath: real)
    }
}
