// The one place where a libwebp status code becomes a Swift error.
import CLibWebP

enum WebPStatus {
    /// Throws the `ImageError` that a `VP8StatusCode` other than `VP8_STATUS_OK` stands for.
    static func check(_ status: VP8StatusCode, file: String, during step: String) throws {
        let why: String
        switch status {
        case VP8_STATUS_OK: return
        case VP8_STATUS_OUT_OF_MEMORY: why = "out of memory"
        case VP8_STATUS_INVALID_PARAM: why = "invalid parameter"
        case VP8_STATUS_BITSTREAM_ERROR: why = "bitstream error"
        case VP8_STATUS_UNSUPPORTED_FEATURE:
            throw ImageError(file: file, format: .webp, reason: .unsupported("\(step): a feature libwebp does not decode"))
        case VP8_STATUS_SUSPENDED: why = "suspended"
        case VP8_STATUS_USER_ABORT: why = "aborted"
        case VP8_STATUS_NOT_ENOUGH_DATA: why = "the file is truncated"
        default: why = "status \(status.rawValue)"
        }
        throw ImageError(file: file, format: .webp, reason: .corrupt("\(step): \(why)"))
    }
}
