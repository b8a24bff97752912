// Comparing rendered pixmaps with references, by number, and leaving evidence when they differ.

import Foundation
import TechoRaster

/// How two images of the same size differ, over premultiplied RGBA channels.
public struct ImageDiff: Sendable, CustomStringConvertible {
    /// Pixels where some channel differs by more than the tolerance the diff was made with.
    public var differingPixels: Int
    /// The largest absolute channel difference anywhere, 0...255.
    public var maxChannelDelta: Int
    /// Peak signal-to-noise ratio in dB over all channels (infinity for identical images).
    public var psnr: Double
    /// Total pixels compared.
    public var pixelCount: Int
    /// The tolerance (per-channel levels) behind `differingPixels`.
    public var tolerance: Int

    public var description: String {
        let p = psnr.isInfinite ? "inf" : String(format: "%.2f", psnr)
        return "PSNR \(p) dB, \(differingPixels)/\(pixelCount) pixels off by > \(tolerance), max channel delta \(maxChannelDelta)"
    }
}

/// Which channel values a comparison looks at.
public enum ComparisonSpace: Sendable {
    /// Premultiplied bytes, as the pixmap holds them: translucent edges weigh by their alpha.
    case premultiplied
    /// Un-premultiplied (straight) bytes, as PNG stores them: what a reference written to a
    /// file and read back can match to ±1.
    case straight
}

/// Compares two pixmaps of the same size channel by channel. Traps on a size mismatch (a test
/// bug); callers check sizes first when they come from files.
///
/// - Parameters:
///   - tolerance: a pixel counts as differing when some channel is off by more. Default 0.
///   - space: Default `.premultiplied`.
public func compareImages(
    _ actual: Pixmap, _ expected: Pixmap, tolerance: Int = 0,
    space: ComparisonSpace = .premultiplied
) -> ImageDiff {
    precondition(
        actual.width == expected.width && actual.height == expected.height,
        "size mismatch: \(actual.width)x\(actual.height) vs \(expected.width)x\(expected.height)")
    var differing = 0, maxDelta = 0
    var sq = 0.0
    let av = space == .premultiplied ? actual.data : actual.straightRGBA()
    let ev = space == .premultiplied ? expected.data : expected.straightRGBA()
    av.withUnsafeBufferPointer { a in
        ev.withUnsafeBufferPointer { e in
            var i = 0
            while i < a.count {
                var off = false
                for k in 0..<4 {
                    let d = abs(Int(a[i + k]) - Int(e[i + k]))
                    if d > maxDelta { maxDelta = d }
                    if d > tolerance { off = true }
                    sq += Double(d * d)
                }
                if off { differing += 1 }
                i += 4
            }
        }
    }
    let mse = sq / Double(av.count)
    let psnr = mse == 0 ? Double.infinity : 10 * log10(255 * 255 / mse)
    return ImageDiff(
        differingPixels: differing, maxChannelDelta: maxDelta, psnr: psnr,
        pixelCount: actual.width * actual.height, tolerance: tolerance)
}

/// A picture of where two images differ: black where equal, red brightening with the largest
/// channel difference, on an opaque background.
public func diffImage(_ actual: Pixmap, _ expected: Pixmap) -> Pixmap {
    var out = Pixmap(width: actual.width, height: actual.height)
    out.fill(r: 0, g: 0, b: 0, a: 255)
    for i in stride(from: 0, to: actual.data.count, by: 4) {
        var m = 0
        for k in 0..<4 { m = max(m, abs(Int(actual.data[i + k]) - Int(expected.data[i + k]))) }
        if m > 0 {
            out.data[i] = UInt8(min(255, 64 + m * 4))
            out.data[i + 1] = 0
            out.data[i + 2] = 0
        }
    }
    return out
}

/// Writes `actual.png`, `expected.png` and `diff.png` for a failed comparison into a temporary
/// folder named after the case, and returns the folder's path for the failure message.
@discardableResult
public func writeFailureArtifacts(name: String, actual: Pixmap, expected: Pixmap) -> String {
    let dir = Fixtures.artifactsDirectory(name)
    try? DiagnosticPNG.encode(actual).write(to: dir.appendingPathComponent("actual.png"))
    try? DiagnosticPNG.encode(expected).write(to: dir.appendingPathComponent("expected.png"))
    if actual.width == expected.width && actual.height == expected.height {
        try? DiagnosticPNG.encode(diffImage(actual, expected)).write(to: dir.appendingPathComponent("diff.png"))
    }
    return dir.path
}

/// Whether the run should rewrite references (`TECHO_RECORD=1`).
public var isRecordingReferences: Bool {
    ProcessInfo.processInfo.environment["TECHO_RECORD"] == "1"
}
