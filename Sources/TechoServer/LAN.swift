// `techo serve --lan`: the editor for a tablet or phone on the same network. The server listens
// on every address of the machine; the URLs it prints are this machine's network addresses, and
// only those (with localhost) are accepted as Host, so DNS rebinding is still refused. The first
// URL is also printed as a QR code (libqrencode) for a tablet's camera.
import CLibQREncode
import CTechoLazy
import Foundation
import TechoCodecs

#if canImport(Glibc)
    import Glibc
#endif

/// The machine's addresses that other machines on its networks can reach.
public enum NetworkAddresses {
    /// Every address of an interface that is up and not loopback: IPv4 first, then IPv6 global
    /// and unique-local ones (a link-local IPv6 address needs a zone in a URL, which browsers
    /// refuse), each once, in the order the system lists them.
    public static func lan() -> [String] {
        var first: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&first) == 0, let head = first else { return [] }
        defer { freeifaddrs(head) }
        var v4: [String] = [], v6: [String] = []
        var next: UnsafeMutablePointer<ifaddrs>? = head
        while let i = next {
            next = i.pointee.ifa_next
            let flags = Int32(i.pointee.ifa_flags)
            guard flags & Int32(IFF_UP) != 0, flags & Int32(IFF_LOOPBACK) == 0, let a = i.pointee.ifa_addr else { continue }
            var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
            switch Int32(a.pointee.sa_family) {
            case AF_INET:
                a.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { s in
                    var addr = s.pointee.sin_addr
                    _ = inet_ntop(AF_INET, &addr, &text, socklen_t(text.count))
                }
                let s = String(cString: text)
                if !v4.contains(s) { v4.append(s) }
            case AF_INET6:
                var linkLocal = false
                a.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { s in
                    var addr = s.pointee.sin6_addr
                    let b = withUnsafeBytes(of: addr) { Array($0) }
                    linkLocal = b[0] == 0xFE && b[1] & 0xC0 == 0x80
                    _ = inet_ntop(AF_INET6, &addr, &text, socklen_t(text.count))
                }
                let s = String(cString: text)
                if !linkLocal, !v6.contains(s) { v6.append(s) }
            default: continue
            }
        }
        return v4 + v6
    }

    /// `address` as the host part of a URL: an IPv6 address in brackets.
    public static func urlHost(_ address: String) -> String { address.contains(":") ? "[\(address)]" : address }
}

/// A QR code drawn with text, for a terminal.
public enum TerminalQR {
    /// Why a QR code could not be made.
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// The modules of the QR code of `text` (error correction M), row by row, true for dark.
    public static func modules(_ text: String) throws -> [[Bool]] {
        if let why = LazyLibraries.missing([TECHO_LAZY_QRENCODE]) { throw Failure(description: why) }
        guard let code = QRcode_encodeString(text, 0, QR_ECLEVEL_M, QR_MODE_8, 1) else {
            throw Failure(description: "libqrencode could not encode \(text.utf8.count) bytes")
        }
        defer { QRcode_free(code) }
        let n = Int(code.pointee.width)
        let data = code.pointee.data!
        return (0..<n).map { y in (0..<n).map { x in data[y * n + x] & 1 == 1 } }
    }

    /// The QR code of `text` as lines of text: two rows of modules per line with the half-block
    /// characters ▀ ▄ █ and a space, dark modules drawn, with the four-module quiet zone the
    /// standard asks for. With `ansi`, each line is also coloured black on white, so the code
    /// reads the same on a dark terminal; without, a light terminal is assumed.
    public static func lines(_ text: String, ansi: Bool) throws -> [String] {
        let m = try modules(text)
        let quiet = 4, n = m.count + 2 * quiet
        func dark(_ x: Int, _ y: Int) -> Bool {
            let (i, j) = (x - quiet, y - quiet)
            return i >= 0 && j >= 0 && i < m.count && j < m.count && m[j][i]
        }
        var out: [String] = []
        for y in stride(from: 0, to: n, by: 2) {
            var line = ansi ? "\u{1B}[30;107m" : ""
            for x in 0..<n {
                switch (dark(x, y), y + 1 < n && dark(x, y + 1)) {
                case (true, true): line += "█"
                case (true, false): line += "▀"
                case (false, true): line += "▄"
                case (false, false): line += " "
                }
            }
            out.append(ansi ? line + "\u{1B}[0m" : line)
        }
        return out
    }
}
