// The tools a print shop or a reader would open techo's PDFs with (poppler-utils and qpdf, which
// `make test` installs through scripts/setup-deps.sh), run on an exported file and read back.
import Foundation

public enum PDFTools {
    /// The file with the value of its `/CreationDate (D:YYYYMMDDHHMMSSZ)` blanked to zeros (same
    /// length): two writes of the same journal differ by their moment, and by nothing else.
    public static func withoutCreationDate(_ pdf: [UInt8]) -> [UInt8] {
        var out = pdf
        let key = Array("/CreationDate (D:".utf8)
        var i = 0
        while i + key.count + 15 <= out.count {
            if out[i] == key[0], Array(out[i..<(i + key.count)]) == key {
                let start = i + key.count
                for j in start..<(start + 14) where out[j] >= 0x30 && out[j] <= 0x39 { out[j] = 0x30 }
                i = start + 14
            } else {
                i += 1
            }
        }
        return out
    }

    /// Runs `/usr/bin/TOOL` with `args` in `dir`; throws when the tool is not installed.
    public static func run(_ tool: String, _ args: [String], in dir: URL) throws -> ChildResult {
        let exe = URL(fileURLWithPath: "/usr/bin/\(tool)")
        guard FileManager.default.isExecutableFile(atPath: exe.path) else {
            throw FixtureError.unreadable(path: exe.path, reason: "not installed: run scripts/setup-deps.sh (poppler-utils, qpdf)")
        }
        return try ChildProcess.run(exe, args, in: dir)
    }

    /// `pdfinfo -box`'s fields, values with their runs of spaces made single.
    public static func info(_ pdf: String, in dir: URL) throws -> [String: String] {
        let r = try run("pdfinfo", ["-box", pdf], in: dir)
        guard r.code == 0 else { throw FixtureError.unreadable(path: pdf, reason: "pdfinfo: \(r.err)") }
        var out: [String: String] = [:]
        for line in r.out.split(separator: "\n") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            out[String(line[..<colon])] = line[line.index(after: colon)...].split(separator: " ").joined(separator: " ")
        }
        return out
    }

    /// What `qpdf --check` found wrong with `pdf`: nil when it exits 0 with no warning, else its
    /// exit status and output.
    public static func qpdfProblems(_ pdf: String, in dir: URL) throws -> String? {
        let r = try run("qpdf", ["--check", pdf], in: dir)
        guard r.code != 0 || r.out.contains("WARNING") || r.err.contains("WARNING") else { return nil }
        return "qpdf --check \(pdf): exit \(r.code)\n\(r.out)\(r.err)"
    }

    /// Every page's size in points, as pdfinfo reads it (`Page N size: W x H pts`), in order.
    public static func pageSizes(_ pdf: String, in dir: URL) throws -> [String] {
        let r = try run("pdfinfo", ["-f", "1", "-l", "100000", pdf], in: dir)
        guard r.code == 0 else { throw FixtureError.unreadable(path: pdf, reason: "pdfinfo: \(r.err)") }
        return r.out.split(separator: "\n").compactMap { line in
            let f = line.split(separator: " ")
            guard f.count >= 4, f[0] == "Page", Int(f[1]) != nil, f[2] == "size:" else { return nil }
            return f.dropFirst(3).joined(separator: " ")
        }
    }

    /// The text poppler extracts from `pdf` (`pdftotext -raw`, UTF-8), pages apart by form feeds.
    public static func text(_ pdf: String, in dir: URL) throws -> String {
        let r = try run("pdftotext", ["-raw", "-enc", "UTF-8", pdf, "-"], in: dir)
        guard r.code == 0 else { throw FixtureError.unreadable(path: pdf, reason: "pdftotext: \(r.err)") }
        return r.out
    }
}
