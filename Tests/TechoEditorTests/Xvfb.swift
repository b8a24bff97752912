// A private X display for the WebKit journeys: Xvfb on the first free display number, which it
// chooses itself and writes to the descriptor named by -displayfd once it accepts connections,
// killed when the journeys end.

import Foundation

#if canImport(Glibc)
    import Glibc
#endif

final class Xvfb {
    let pid: pid_t
    /// The display, such as ":3".
    let display: String

    static let binary = "/usr/bin/Xvfb"

    init(width: Int = 1440, height: Int = 900, log: String) throws {
        guard FileManager.default.isExecutableFile(atPath: Xvfb.binary) else {
            throw DevToolsError(description: "\(Xvfb.binary) is missing: scripts/setup-deps.sh installs the xvfb package")
        }
        let number = try Spawn.pipePair()
        do {
            pid = try Spawn.start(
                Xvfb.binary, [Xvfb.binary, "-displayfd", "3", "-screen", "0", "\(width)x\(height)x24", "-nolisten", "tcp"],
                log: log, dup: [(number.write, 3)])
        } catch {
            close(number.read); close(number.write)
            throw error
        }
        close(number.write)
        // The number and a newline arrive once the server is ready; end of file means it died.
        var text = [UInt8](), byte: UInt8 = 0
        while read(number.read, &byte, 1) == 1 && byte != UInt8(ascii: "\n") { text.append(byte) }
        close(number.read)
        guard let n = Int(String(decoding: text, as: UTF8.self)) else {
            kill(pid, SIGKILL)
            _ = Spawn.wait(pid, timeout: 5)
            throw DevToolsError(description: "Xvfb gave no display number; its log: \((try? String(contentsOfFile: log, encoding: .utf8)) ?? "")")
        }
        display = ":\(n)"
    }

    func stop() {
        kill(pid, SIGTERM)
        if Spawn.wait(pid, timeout: 5) == nil {
            kill(pid, SIGKILL)
            _ = Spawn.wait(pid, timeout: 5)
        }
    }
}
