// The one place where a librsvg / GLib error or a cairo status becomes a Swift error.
import CRsvg

enum SVGStatus {
    /// Throws the error `error` holds (freeing it), or a generic one when librsvg failed
    /// without saying why.
    static func fail(_ error: UnsafeMutablePointer<GError>?, file: String, during step: String) -> ImageError {
        defer { if let error { g_error_free(error) } }
        let message = error.flatMap { $0.pointee.message.map { String(cString: $0) } } ?? "librsvg gave no reason"
        return ImageError(file: file, format: .svg, reason: .corrupt("\(step): \(message)"))
    }

    /// Throws when a cairo surface or context is in an error state (usually out of memory).
    static func check(_ status: cairo_status_t, file: String, during step: String) throws {
        guard status != CAIRO_STATUS_SUCCESS else { return }
        let message = cairo_status_to_string(status).map { String(cString: $0) } ?? "status \(status.rawValue)"
        throw ImageError(file: file, format: .svg, reason: .corrupt("\(step): \(message)"))
    }
}
