// Errors of the bundle storage layer, each naming the file at fault.

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A storage operation that failed, naming the file.
public struct StorageError: Error, Equatable, CustomStringConvertible, Sendable {
    /// The file or folder, relative to the bundle where possible.
    public var path: String
    /// What went wrong.
    public var message: String
    public init(path: String, message: String) { self.path = path; self.message = message }
    public var description: String { "\(path): \(message)" }

    /// An error from the current `errno`.
    static func errno(_ path: String, _ what: String) -> StorageError {
        StorageError(path: path, message: "\(what): \(String(cString: strerror(Glibc.errno)))")
    }
}
