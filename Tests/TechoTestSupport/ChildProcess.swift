// Runs a built program to the end and keeps what it printed: what the end-to-end tests of the
// CLI and of the editor both do with `techo`.
import Foundation

/// How a program exited and what it printed.
public struct ChildResult: Sendable {
    public var code: Int32
    public var out: String
    public var err: String

    public init(code: Int32, out: String, err: String) { self.code = code; self.out = out; self.err = err }
}

public enum ChildProcess {
    /// Runs `executable` with `args` in `folder`, stdin closed, and waits for it to exit. Both
    /// pipes are read to their ends at once, so a chatty child never blocks on a full pipe.
    /// `environment`: the child's whole environment (nil, the default: this process's);
    /// `adding`: variables set on top of it.
    public static func run(
        _ executable: URL, _ args: [String], in folder: URL, environment: [String: String]? = nil, adding: [String: String] = [:]
    ) throws -> ChildResult {
        let p = Process()
        p.executableURL = executable
        p.arguments = args
        p.currentDirectoryURL = folder
        if environment != nil || !adding.isEmpty {
            p.environment = (environment ?? ProcessInfo.processInfo.environment).merging(adding) { $1 }
        }
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        p.standardInput = FileHandle.nullDevice
        try p.run()
        final class Box: @unchecked Sendable { var data = Data() }
        let outBox = Box()
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async {
            outBox.data = out.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        p.waitUntilExit()
        return ChildResult(code: p.terminationStatus, out: String(decoding: outBox.data, as: UTF8.self), err: String(decoding: errData, as: UTF8.self))
    }
}
