// SHA-256 content addresses through OpenSSL's libcrypto (its EVP digest interface), which uses
// the CPU's SHA extensions where there are some. Checked against the NIST example vectors.
import CLibCrypto

/// An incremental SHA-256 hasher (FIPS 180-4), backed by libcrypto.
///
/// A reference type: copies share one running digest. `finalize()` spends it.
public final class SHA256 {
    private let ctx: OpaquePointer

    public init() {
        // Allocation of a digest context only fails when memory is exhausted.
        guard let c = EVP_MD_CTX_new(), EVP_DigestInit_ex(c, EVP_sha256(), nil) == 1 else {
            preconditionFailure("libcrypto cannot start a SHA-256 digest")
        }
        ctx = c
    }

    deinit { EVP_MD_CTX_free(ctx) }

    /// Feeds bytes held in contiguous memory.
    public func update(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        precondition(EVP_DigestUpdate(ctx, base, bytes.count) == 1, "libcrypto SHA-256 update failed")
    }

    /// Feeds bytes.
    public func update<C: Collection>(_ bytes: C) where C.Element == UInt8 {
        if let done: Void = bytes.withContiguousStorageIfAvailable({ update(UnsafeRawBufferPointer($0)) }) { return done }
        Array(bytes).withUnsafeBytes { update($0) }
    }

    /// The 32-byte digest; the hasher is spent.
    public func finalize() -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 32)
        var n: UInt32 = 0
        precondition(
            out.withUnsafeMutableBufferPointer { EVP_DigestFinal_ex(ctx, $0.baseAddress, &n) } == 1 && n == 32,
            "libcrypto SHA-256 final failed")
        return out
    }

    /// The digest of `bytes`.
    public static func hash<C: Collection>(_ bytes: C) -> [UInt8] where C.Element == UInt8 {
        let s = SHA256()
        s.update(bytes)
        return s.finalize()
    }

    /// The digest of `bytes` as lowercase hex.
    public static func hex<C: Collection>(_ bytes: C) -> String where C.Element == UInt8 {
        hexString(hash(bytes))
    }

    /// A digest as lowercase hex.
    public static func hexString(_ digest: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        out.reserveCapacity(digest.count * 2)
        for b in digest { out.append(digits[Int(b >> 4)]); out.append(digits[Int(b & 15)]) }
        return String(decoding: out, as: UTF8.self)
    }
}
