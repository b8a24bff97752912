// Reading a small input file named on the command line (points, gesture recordings), refusing
// folders, missing files and files over the size limit before reading them.
import Foundation

enum InputFile {
    /// The bytes of `arg`'s file; errors name the file as the user typed it.
    static func read(_ arg: Arg, io: CommandIO, limit: Int) throws -> [UInt8] {
        let path = io.resolve(arg.text)
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDir) else {
            throw CommandError(.noInput, "\(arg.text): no such file")
        }
        guard !isDir.boolValue else { throw CommandError(.noInput, "\(arg.text): is a folder, not a file") }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw CommandError(.noInput, "\(arg.text): cannot be read (permission denied?)")
        }
        defer { try? handle.close() }
        let data = (try? handle.read(upToCount: limit + 1)) ?? nil
        guard let data else { throw CommandError(.noInput, "\(arg.text): cannot be read") }
        guard data.count <= limit else { throw CommandError(.dataError, "\(arg.text): larger than the limit of \(limit) bytes") }
        return [UInt8](data)
    }
}
