// What writing an export can fail with. The editing layer (TechoEditing's `EditError`) turns it
// into a kind and a message with everything else.

/// An export that could not be written. Nothing was left under a final name.
public struct ExportError: Error, Equatable, Sendable, CustomStringConvertible {
    /// True when the output file or folder cannot be created (as opposed to a failed write).
    public var cannotCreate: Bool
    /// What went wrong, naming the file.
    public var message: String

    public init(cannotCreate: Bool, _ message: String) {
        self.cannotCreate = cannotCreate
        self.message = message
    }

    public var description: String { message }
}
