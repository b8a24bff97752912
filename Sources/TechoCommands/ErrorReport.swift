// Every error becomes one message and one exit code here: a command line's own mistakes are
// usage errors; everything else is the editing layer's `EditError`, whose kind says the code.
import Foundation
import TechoEditing

enum ErrorReport {
    static func describe(_ error: Error) -> (ExitCode, String) {
        if let e = error as? UsageError { return (.usage, e.message) }
        let e = EditError(from: error)
        return (ExitCode(e.kind), e.message)
    }
}

extension ExitCode {
    /// The exit code for an `EditError` of this kind (the one place the CLI decides it).
    init(_ kind: EditError.Kind) {
        switch kind {
        case .invalid, .unsupportedFormat, .tooLarge, .unrenderable: self = .dataError
        case .notFound: self = .noInput
        case .conflict, .failure: self = .failure
        case .cannotCreate: self = .cannotCreate
        }
    }
}
