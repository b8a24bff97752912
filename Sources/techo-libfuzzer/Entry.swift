// techo-libfuzzer: the fuzz targets of TechoFuzzTargets under libFuzzer's coverage-guided loop.
// It exists only in the instrumented build that `make fuzz` makes (Package.swift adds it when
// TECHO_LIBFUZZER is set, and the build passes `--sanitize=fuzzer` and AddressSanitizer), so
// libFuzzer supplies `main`; TECHO_FUZZ_TARGET names the target. See docs/fuzzing.md.
import Foundation
import TechoFuzzTargets
import TechoGeometry

#if canImport(Glibc)
    import Glibc
#endif

/// The target this process fuzzes, chosen once in `LLVMFuzzerInitialize`.
nonisolated(unsafe) var selected: FuzzTarget?

@_silgen_name("LLVMFuzzerMutate")
func libFuzzerMutate(_ data: UnsafeMutablePointer<UInt8>, _ size: Int, _ maxSize: Int) -> Int

@_cdecl("LLVMFuzzerInitialize")
public func fuzzerInitialize(_ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>) -> CInt {
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("techo-libfuzzer-\(getpid())")
    let targets = Targets.all(scratch: scratch)
    let name = ProcessInfo.processInfo.environment["TECHO_FUZZ_TARGET"] ?? ""
    guard let t = targets.first(where: { $0.name == name }) else {
        let names = targets.map(\.name).joined(separator: ", ")
        FileHandle.standardError.write(Data("techo-libfuzzer: TECHO_FUZZ_TARGET must name a target: \(names)\n".utf8))
        exit(64)
    }
    selected = t
    return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let target = selected else { return 0 }
    // Longer inputs than the target takes are not kept in the corpus (-1), as techo-fuzz never
    // makes them either.
    guard size <= target.maxLength else { return -1 }
    let bytes = size == 0 || data == nil ? [] : Array(UnsafeBufferPointer(start: data, count: size))
    _ = target.run(bytes)
    return 0
}

/// libFuzzer's own mutations, then (for half of them) the target's repair, so PNG mutants get
/// valid chunk CRCs and reach the chunk parsers behind libpng's check, as in techo-fuzz.
@_cdecl("LLVMFuzzerCustomMutator")
public func fuzzerCustomMutator(_ data: UnsafeMutablePointer<UInt8>, _ size: Int, _ maxSize: Int, _ seed: CUnsignedInt) -> Int {
    let n = libFuzzerMutate(data, size, maxSize)
    guard let repair = selected?.repair, seed & 1 == 1, n > 0 else { return n }
    var bytes = Array(UnsafeBufferPointer(start: data, count: n))
    var rng = SplitMix64(seed: UInt64(seed))
    repair(&bytes, &rng)
    let m = min(bytes.count, maxSize)
    bytes.withUnsafeBufferPointer { b in
        if let base = b.baseAddress { data.update(from: base, count: m) }
    }
    return m
}
