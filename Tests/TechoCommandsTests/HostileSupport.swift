// Helpers for the hostile-input, crash and concurrency tests: running techo with a time limit
// (a hang is a failure, not a stuck suite), under a shell with resource limits, and making
// files that lie.
import Foundation
import TechoCodecs
import TechoRaster

#if canImport(Glibc)
    import Glibc
#endif

extension Workspace {
    /// Runs `techo ARGS…`, killing it after `seconds`; `timedOut` tells whether it had to be.
    func run(timeout seconds: Double, _ args: [String]) throws -> (result: RunResult, timedOut: Bool) {
        try runProcess(Workspace.binary.path, args, timeout: seconds)
    }

    /// Runs `sh -c SCRIPT` in the workspace with `$TECHO` set to the binary, with a time limit.
    func shell(_ script: String, timeout seconds: Double = 60) throws -> (result: RunResult, timedOut: Bool) {
        try runProcess("/bin/sh", ["-c", script], timeout: seconds, env: ["TECHO": Workspace.binary.path])
    }

    func runProcess(_ exe: String, _ args: [String], timeout seconds: Double, env: [String: String] = [:]) throws -> (result: RunResult, timedOut: Bool) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: exe)
        p.arguments = args
        p.currentDirectoryURL = dir
        if !env.isEmpty { p.environment = ProcessInfo.processInfo.environment.merging(env) { $1 } }
        // Output goes to files, so a child that never exits cannot block us on a pipe.
        let outURL = dir.appendingPathComponent(".out-\(UInt32.random(in: 0...UInt32.max))")
        let errURL = dir.appendingPathComponent(".err-\(UInt32.random(in: 0...UInt32.max))")
        FileManager.default.createFile(atPath: outURL.path, contents: nil)
        FileManager.default.createFile(atPath: errURL.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: outURL); try? FileManager.default.removeItem(at: errURL) }
        let out = try FileHandle(forWritingTo: outURL), err = try FileHandle(forWritingTo: errURL)
        p.standardOutput = out
        p.standardError = err
        p.standardInput = FileHandle.nullDevice
        try p.run()
        let deadline = Date().addingTimeInterval(seconds)
        var timedOut = false
        while p.isRunning {
            if Date() > deadline { timedOut = true; kill(p.processIdentifier, SIGKILL); break }
            usleep(5_000)
        }
        p.waitUntilExit()
        try out.close(); try err.close()
        let o = String(decoding: (try? Data(contentsOf: outURL)) ?? Data(), as: UTF8.self)
        let e = String(decoding: (try? Data(contentsOf: errURL)) ?? Data(), as: UTF8.self)
        return (RunResult(code: p.terminationStatus, out: o, err: e), timedOut)
    }

    func write(_ relative: String, _ bytes: [UInt8]) throws { try Data(bytes).write(to: url(relative)) }
    func write(_ relative: String, _ text: String) throws { try Data(text.utf8).write(to: url(relative)) }

    /// Every regular file under `relative` (bundle-relative path → bytes), hidden files included.
    func snapshot(_ relative: String) -> [String: [UInt8]] {
        var out: [String: [UInt8]] = [:]
        let root = url(relative)
        guard let e = FileManager.default.enumerator(atPath: root.path) else { return out }
        for case let rel as String in e {
            let u = root.appendingPathComponent(rel)
            var isDir: ObjCBool = false
            if FileManager.default.fileExists(atPath: u.path, isDirectory: &isDir), !isDir.boolValue,
                let d = try? Data(contentsOf: u)
            {
                out[rel] = [UInt8](d)
            }
        }
        return out
    }
}

/// Image files that lie, built byte by byte.
enum LyingFiles {
    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var c: UInt32 = 0xFFFF_FFFF
        for b in bytes {
            c ^= UInt32(b)
            for _ in 0..<8 { c = (c & 1) != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        }
        return c ^ 0xFFFF_FFFF
    }

    static func be32(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8((v >> 16) & 0xff), UInt8((v >> 8) & 0xff), UInt8(v & 0xff)] }

    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        return be32(UInt32(data.count)) + body + be32(crc32(body))
    }

    /// A PNG whose header claims `w`×`h` RGBA pixels, followed by `idat` (valid CRCs throughout).
    static func png(width w: UInt32, height h: UInt32, idat: [UInt8]) -> [UInt8] {
        [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
            + chunk("IHDR", be32(w) + be32(h) + [8, 6, 0, 0, 0])
            + chunk("IDAT", idat) + chunk("IEND", [])
    }

    /// A zlib stream of `n` zero bytes made of fixed-Huffman back-references: a few hundred
    /// bytes that inflate to `n`. (One literal 0, then length-258 copies at distance 1.)
    static func zlibZeros(_ n: Int) -> [UInt8] {
        var bits: [Bool] = []
        func put(_ v: Int, _ count: Int, reversed: Bool = false) {
            // Huffman codes go most significant bit first; other fields least significant first.
            for i in 0..<count { bits.append(((v >> (reversed ? count - 1 - i : i)) & 1) == 1) }
        }
        put(1, 1); put(1, 2)  // BFINAL, BTYPE=01 (fixed)
        put(0x30, 8, reversed: true)  // literal 0
        var left = n - 1
        while left >= 258 {
            put(0b1100_0101, 8, reversed: true)  // length code 285 (= 258)
            put(0, 5, reversed: true)  // distance code 0 (= 1)
            left -= 258
        }
        while left > 0 { put(0x30, 8, reversed: true); left -= 1 }
        put(0, 7, reversed: true)  // end of block (256)
        var out: [UInt8] = [0x78, 0x01]
        var byte: UInt8 = 0, k = 0
        for b in bits {
            if b { byte |= 1 << k }
            k += 1
            if k == 8 { out.append(byte); byte = 0; k = 0 }
        }
        if k > 0 { out.append(byte) }
        return out + [0, 0, 0, 0]  // Adler-32 left wrong: the header must refuse it before inflating.
    }

    /// A real JPEG whose SOF marker is rewritten to claim `w`×`h`.
    static func resizingJPEG(_ jpeg: [UInt8], width w: UInt16, height h: UInt16) -> [UInt8] {
        var b = jpeg
        var i = 2
        while i + 9 < b.count, b[i] == 0xFF {
            let marker = b[i + 1], len = Int(b[i + 2]) << 8 | Int(b[i + 3])
            if marker >= 0xC0 && marker <= 0xC2 {
                b[i + 5] = UInt8(h >> 8); b[i + 6] = UInt8(h & 0xff); b[i + 7] = UInt8(w >> 8); b[i + 8] = UInt8(w & 0xff)
                return b
            }
            i += 2 + len
        }
        preconditionFailure("no SOF marker")
    }

    /// A PNG of seeded noise: it does not compress, so its pixel data is most of the file.
    static func noisePNG(_ w: Int, _ h: Int, seed: UInt64 = 7) -> [UInt8] {
        var x = seed | 1
        var bytes = [UInt8](repeating: 255, count: w * h * 4)
        for i in bytes.indices where i % 4 != 3 {
            x ^= x << 13; x ^= x >> 7; x ^= x << 17
            bytes[i] = UInt8(truncatingIfNeeded: x)
        }
        return (try? PNGEncoder.encode(Pixmap(width: w, height: h, straightRGBA: bytes), name: "noise")) ?? []
    }

    static let gif: [UInt8] = Array("GIF89a".utf8) + [1, 0, 1, 0, 0x80, 0, 0, 0, 0, 0, 255, 255, 255, 0x2C, 0, 0, 0, 0, 1, 0, 1, 0, 0, 2, 2, 0x44, 1, 0, 0x3B]
    static let webp: [UInt8] = Array("RIFF".utf8) + [26, 0, 0, 0] + Array("WEBPVP8L".utf8) + [13, 0, 0, 0, 0x2F, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]
}

/// True when the tests run as root, where permission bits do not stop reads.
let runningAsRoot = getuid() == 0
