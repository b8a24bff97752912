// Where the test binaries find the package's executables: swift build puts every product in one
// folder, beside the test bundle.
import Foundation

public enum BuiltProducts {
    /// The executable `name` built beside the tests (searched from the test bundle up four
    /// folders). Traps with a message when it was not built.
    public static func url(_ name: String) -> URL {
        var starts: [URL] = []
        if let exe = Bundle.main.executableURL { starts.append(exe.deletingLastPathComponent()) }
        starts.append(URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent())
        for start in starts {
            var d = start
            for _ in 0..<4 {
                let t = d.appendingPathComponent(name)
                var isDir: ObjCBool = false
                if FileManager.default.fileExists(atPath: t.path, isDirectory: &isDir), !isDir.boolValue { return t }
                d = d.deletingLastPathComponent()
            }
        }
        preconditionFailure("the \(name) binary was not built next to the tests (run swift build --build-tests)")
    }
}
