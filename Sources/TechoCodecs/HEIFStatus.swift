// The one place where a libheif `heif_error` becomes a Swift error.
import CLibHeif

enum HEIFStatus {
    /// Throws the `ImageError` that `error` stands for, unless it is `heif_error_Ok`.
    /// `size` gives the claimed dimensions for a limits error.
    static func check(
        _ error: heif_error, file: String, format: ImageFormat, limits: ImageLimits,
        during step: String, size: (Int, Int) = (0, 0)
    ) throws {
        guard error.code != heif_error_Ok else { return }
        let message = error.message.map { String(cString: $0) } ?? "code \(error.code.rawValue).\(error.subcode.rawValue)"
        let reason: ImageError.Reason
        switch error.code {
        case _ where error.subcode == heif_suberror_Security_limit_exceeded:
            reason =
                size == (0, 0)
                ? .corrupt("\(step): over libheif's security limits: \(message)")
                : .tooLarge(width: size.0, height: size.1, limits: limits)
        case heif_error_Unsupported_feature, heif_error_Unsupported_filetype:
            reason = .unsupported("\(step): \(message)")
        case heif_error_Decoder_plugin_error where error.subcode == heif_suberror_Unsupported_codec:
            reason = .unsupported("\(step): no decoder for this codec is installed (\(message))")
        default:
            reason = .corrupt("\(step): \(message)")
        }
        throw ImageError(file: file, format: format, reason: reason)
    }
}
