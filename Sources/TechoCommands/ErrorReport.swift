// Every error any layer throws becomes one message and one exit code here.
import Foundation
import TechoCodecs
import TechoModel
import TechoRender
import TechoText

enum ErrorReport {
    /// The most problems of one file listed in an error message. Default 50.
    static let maxProblemsShown = 50

    static func describe(_ error: Error) -> (ExitCode, String) {
        switch error {
        case let e as UsageError: return (.usage, e.message)
        case let e as CommandError: return (e.code, e.message)
        case let e as JSONDecodingError:
            let n = e.problems.count
            // A hostile file can hold thousands of problems; the first ones say what is wrong.
            let shown = e.problems.prefix(maxProblemsShown).map { "  \($0)" }
            let more = n > maxProblemsShown ? ["  … and \(n - maxProblemsShown) more"] : []
            return (.dataError, "\(e.file ?? "input"): \(n) problem\(n == 1 ? "" : "s"):\n" + (shown + more).joined(separator: "\n"))
        case let e as JSONSyntaxError: return (.dataError, e.description)
        case let e as FormatVersionError: return (.dataError, e.description)
        case let e as ImageError:
            if case .unreadable = e.reason { return (.noInput, e.description) }
            return (.dataError, e.description)
        case let e as GestureError: return (.dataError, "refused, nothing changed: \(e.message)")
        case let e as GestureReplayError: return (.dataError, e.description)
        case let e as ValueError: return (.dataError, e.message)
        case let e as PathError: return (.noInput, e.description)
        case let e as StorageError: return (.failure, e.description)
        case let e as RenderError: return (.dataError, e.description)
        default: return (.failure, String(describing: error))
        }
    }
}
