// The one error every change of a journal throws. Each layer below has its own precise error
// (a JSON path, an image's bytes, a gesture that would be singular); `EditError(from:)` is the
// one place they become a kind and a message. The CLI turns the kind into an exit code, the
// editor's server into an HTTP status, each in one function of its own; the library throws it
// as it is.
import Foundation
import TechoCodecs
import TechoExport
import TechoModel
import TechoRender
import TechoText

/// A change of a journal that was refused or failed. Nothing was written.
public struct EditError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What kind of failure it is, which decides the exit code and the HTTP status.
    public enum Kind: String, Sendable, CaseIterable {
        /// A value breaks a rule or a limit, or a file is malformed (exit 65, HTTP 400).
        case invalid
        /// A journal, page, element, template or file does not exist or cannot be read (66, 404).
        case notFound
        /// The change does not fit the journal's state: nothing to undo, an id already taken (1, 409).
        case conflict
        /// A file's bytes are no format techo reads (65, 415).
        case unsupportedFormat
        /// A file or body is over a size limit (65, 413).
        case tooLarge
        /// What the journal holds cannot be drawn (65, 422).
        case unrenderable
        /// An output file or folder cannot be created (73, 500).
        case cannotCreate
        /// Storage failed: an I/O error, a full disk, a lock that stayed held (1, 500).
        case failure
    }

    /// The kind. Default `.invalid`.
    public var kind: Kind
    /// What is wrong, naming the field, file, id or value at fault; no "error:" prefix.
    public var message: String

    /// The field at fault by its JSON name (`lineHeight`, `at`), when the error is about one;
    /// `message` then begins with it.
    public var field: String?

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    /// An error about one field: the message reads "`field`: `detail`".
    public init(_ kind: Kind, field: String, _ detail: String) {
        self.kind = kind
        self.field = field
        self.message = "\(field): \(detail)"
    }

    /// The same error with the field called what a front end calls it (`--line-height` for
    /// `lineHeight`); an error about no field comes back as it is.
    public func relabelled(_ label: (String) -> String) -> EditError {
        guard let field, message.hasPrefix(field + ": ") else { return self }
        var e = self
        e.message = label(field) + message.dropFirst(field.count)
        return e
    }

    /// The same error, about `field`.
    public func relabelled(field: String) -> EditError {
        if self.field != nil { return self }
        var e = self
        e.field = field
        e.message = "\(field): \(message)"
        return e
    }

    public var description: String { message }

    /// The most problems of one file listed in a message. 50.
    public static let maxProblemsShown = 50

    /// Any error a layer below throws, as an `EditError`; an `EditError` comes back as it is.
    public init(from error: Error) {
        switch error {
        case let e as EditError: self = e
        case let e as JSONDecodingError:
            let n = e.problems.count
            // A hostile file can hold thousands of problems; the first ones say what is wrong.
            let shown = e.problems.prefix(EditError.maxProblemsShown).map { "  \($0)" }
            let more = n > EditError.maxProblemsShown ? ["  … and \(n - EditError.maxProblemsShown) more"] : []
            self.init(.invalid, "\(e.file ?? "input"): \(n) problem\(n == 1 ? "" : "s"):\n" + (shown + more).joined(separator: "\n"))
        case let e as JSONSyntaxError: self.init(.invalid, e.description)
        case let e as FormatVersionError: self.init(.invalid, e.description)
        case let e as ImageError:
            switch e.reason {
            case .unreadable: self.init(.notFound, e.description)
            case .unknownFormat: self.init(.unsupportedFormat, e.description)
            case .fileTooLarge: self.init(.tooLarge, e.description)
            default: self.init(.invalid, e.description)
            }
        case let e as GestureError: self.init(.invalid, "refused, nothing changed: \(e.message)")
        case let e as GestureReplayError: self.init(.invalid, e.description)
        case let e as ValueError:
            self.init(.invalid, e.message)
            field = e.field
        case let e as PathError: self.init(.notFound, e.description)
        case let e as StorageError: self.init(.failure, e.description)
        case let e as RenderError: self.init(.unrenderable, e.description)
        case let e as TextError: self.init(.unrenderable, e.description)
        case let e as FontError: self.init(.invalid, e.description)
        case let e as ExportError: self.init(e.cannotCreate ? .cannotCreate : .failure, e.message)
        default: self.init(.failure, String(describing: error))
        }
    }

    /// Runs `body`, rethrowing whatever it throws as an `EditError`.
    public static func wrapping<R>(_ body: () throws -> R) throws(EditError) -> R {
        do { return try body() } catch { throw EditError(from: error) }
    }
}
