// JPEG decoding through libjpeg-turbo (not built yet).
enum JPEGDecoding {
    static func info(_ bytes: [UInt8], file: String, limits: ImageLimits, scaleDenominator: Int) throws -> (ImageInfo, Int) {
        throw ImageError(file: file, format: .jpeg, reason: .unsupported("JPEG decoding is not built yet"))
    }
    static func decode(_ bytes: [UInt8], file: String, limits: ImageLimits,
                       minimumSize: (width: Int, height: Int)?) throws -> (RGBAImage, ImageInfo, Int, [String]) {
        throw ImageError(file: file, format: .jpeg, reason: .unsupported("JPEG decoding is not built yet"))
    }
}
