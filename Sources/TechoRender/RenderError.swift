// The one error type of the renderer: every failure names the page, and the element when there is one.

/// A page that could not be rendered.
///
/// `description` reads `page p1, element photo-2: assets/ab12….jpg: corrupt JPEG data: …`.
public struct RenderError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The page id.
    public var pageID: String
    /// The element id, or nil when the failure is the page's own (size, background).
    public var elementID: String?
    /// What failed, naming the asset or value at fault.
    public var message: String

    public init(pageID: String, elementID: String? = nil, message: String) {
        self.pageID = pageID
        self.elementID = elementID
        self.message = message
    }

    public var description: String {
        "page \(pageID)" + (elementID.map { ", element \($0)" } ?? "") + ": " + message
    }
}
