// Finding test files beside the test sources, without reading anything outside the repository.

import Foundation

/// Paths of fixture files, relative to the folder of the test file that asks.
public enum Fixtures {
    /// The folder holding the calling test file.
    public static func directory(of filePath: String = #filePath) -> URL {
        URL(fileURLWithPath: filePath).deletingLastPathComponent()
    }

    /// `relative` resolved against the folder of the calling test file, e.g.
    /// `Fixtures.url("Fixtures/primitives/circle_fill.json")`.
    public static func url(_ relative: String, filePath: String = #filePath) -> URL {
        directory(of: filePath).appendingPathComponent(relative)
    }

    /// The bytes of a fixture file; throws with the path when it cannot be read.
    public static func data(_ relative: String, filePath: String = #filePath) throws -> Data {
        let u = url(relative, filePath: filePath)
        do { return try Data(contentsOf: u) } catch {
            throw FixtureError.unreadable(path: u.path, reason: "\(error)")
        }
    }

    /// A fresh folder under the system temporary directory for failure artefacts.
    public static func artifactsDirectory(_ name: String) -> URL {
        let u = FileManager.default.temporaryDirectory.appendingPathComponent("techo-test-artifacts")
            .appendingPathComponent(name)
        try? FileManager.default.createDirectory(at: u, withIntermediateDirectories: true)
        return u
    }
}

/// Why a fixture could not be used.
public enum FixtureError: Error, CustomStringConvertible {
    case unreadable(path: String, reason: String)
    case invalid(path: String, reason: String)

    public var description: String {
        switch self {
        case .unreadable(let p, let r): return "cannot read fixture \(p): \(r)"
        case .invalid(let p, let r): return "invalid fixture \(p): \(r)"
        }
    }
}
