// Reference-image checks: load a PNG reference, compare, and on failure leave actual + diff
// PNGs in a temporary folder; `TECHO_RECORD=1` rewrites the reference and still fails.

import Foundation
import TechoCodecs
import TechoRaster

/// Loads a PNG or JPEG file as a premultiplied pixmap.
public func loadImage(_ url: URL) throws -> Pixmap {
    try ImageDecoder.decode(contentsOf: url.path).pixels
}

/// The outcome of comparing a render with its reference file.
public struct ReferenceCheck: Sendable {
    /// True when the render is within the limits (never true while recording).
    public var passed: Bool
    /// The numbers, and where the failure images are, for the test's failure message.
    public var message: String
    /// The comparison, when the reference could be read and sizes matched.
    public var diff: ImageDiff?
}

/// Compares `actual` with the PNG at `reference`: it passes when at most `maxDifferingPixels`
/// pixels differ by more than `tolerance` in some channel (of `space`, default premultiplied;
/// use `.straight` with tolerance 1 for translucent references, which PNG stores straight).
///
/// On failure `actual.png`, `expected.png` and `diff.png` are written to a temporary folder
/// named `name`, whose path is in the message. With `TECHO_RECORD=1` the reference is
/// rewritten from `actual` and the check fails, so a recording run is never mistaken for a
/// passing one.
/// `record` defaults to `TECHO_RECORD=1`.
public func checkReference(
    _ actual: Pixmap, reference: URL, name: String, tolerance: Int = 1,
    maxDifferingPixels: Int = 0, space: ComparisonSpace = .premultiplied,
    record: Bool = isRecordingReferences
) -> ReferenceCheck {
    if record {
        do {
            let bytes = try PNGEncoder.encode(actual, name: reference.path)
            try Data(bytes).write(to: reference)
            return ReferenceCheck(passed: false, message: "recorded \(reference.path); run again without TECHO_RECORD", diff: nil)
        } catch {
            return ReferenceCheck(passed: false, message: "could not record \(reference.path): \(error)", diff: nil)
        }
    }
    let expected: Pixmap
    do { expected = try loadImage(reference) } catch {
        let dir = Fixtures.artifactsDirectory(name)
        try? DiagnosticPNG.encode(actual).write(to: dir.appendingPathComponent("actual.png"))
        return ReferenceCheck(
            passed: false, message: "cannot read reference \(reference.path): \(error); actual in \(dir.path) (TECHO_RECORD=1 writes it)", diff: nil)
    }
    guard expected.width == actual.width && expected.height == actual.height else {
        let dir = writeFailureArtifacts(name: name, actual: actual, expected: expected)
        return ReferenceCheck(
            passed: false, message: "size \(actual.width)x\(actual.height) differs from reference \(expected.width)x\(expected.height); images in \(dir)",
            diff: nil)
    }
    let d = compareImages(actual, expected, tolerance: tolerance, space: space)
    if d.differingPixels <= maxDifferingPixels {
        return ReferenceCheck(passed: true, message: "\(name): \(d)", diff: d)
    }
    let dir = writeFailureArtifacts(name: name, actual: actual, expected: expected)
    return ReferenceCheck(passed: false, message: "\(name): \(d) (allowed \(maxDifferingPixels)); actual/expected/diff PNGs in \(dir)", diff: d)
}
