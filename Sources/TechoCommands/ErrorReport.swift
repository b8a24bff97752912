// Every error any layer throws becomes one message and one exit code here.
import Foundation

enum ErrorReport {
    static func describe(_ error: Error) -> (ExitCode, String) {
        switch error {
        case let e as UsageError: return (.usage, e.message)
        case let e as CommandError: return (e.code, e.message)
        default: return (.failure, String(describing: error))
        }
    }
}
