// Fixture corpora: rows of an EXPECTED.tsv, found next to this file via #filePath.
import TechoCodecs
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The folder holding the copied conformance corpora.
let fixturesDirectory: String = {
    let this = "\(#filePath)"
    let dir = this[..<this.lastIndex(of: "/")!]
    return dir + "/Fixtures"
}()

/// One row of a corpus's EXPECTED.tsv.
struct CorpusRow: Sendable, CustomTestStringConvertible {
    /// Corpus folder under Fixtures ("pngsuite", "libpng", ...).
    let corpus: String
    /// Column name → value.
    let fields: [String: String]

    var file: String { fields["file"] ?? "" }
    var expected: String { fields["expected"] ?? "" }
    var path: String { "\(fixturesDirectory)/\(corpus)/\(file)" }
    var referencePath: String? {
        guard let r = fields["reference"], r != "-" else { return nil }
        return "\(fixturesDirectory)/\(corpus)/\(r)"
    }
    var testDescription: String { "\(corpus)/\(file) [\(expected)]" }
}

/// The rows of `Fixtures/<corpus>/EXPECTED.tsv`; the first non-comment line names the columns.
func corpusRows(_ corpus: String) -> [CorpusRow] {
    guard let text = try? readFile("\(fixturesDirectory)/\(corpus)/EXPECTED.tsv") else { return [] }
    var header: [String]?
    var rows: [CorpusRow] = []
    for line in String(decoding: text, as: UTF8.self).split(separator: "\n") where !line.hasPrefix("#") {
        let cols = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        if header == nil { header = cols; continue }
        var fields: [String: String] = [:]
        for (k, v) in zip(header!, cols) { fields[k] = v }
        rows.append(CorpusRow(corpus: corpus, fields: fields))
    }
    return rows
}

/// The bytes of a file (tests only; the product reads through ImageDecoder).
func readFile(_ path: String) throws -> [UInt8] {
    guard let f = fopen(path, "rb") else { throw ImageError(file: path, format: nil, reason: .unreadable("fopen")) }
    defer { fclose(f) }
    var out: [UInt8] = []
    var buf = [UInt8](repeating: 0, count: 65536)
    while true {
        let n = fread(&buf, 1, buf.count, f)
        if n == 0 { break }
        out.append(contentsOf: buf[0..<n])
    }
    return out
}

/// Index and values of the first differing byte, for failure messages.
func firstDifference(_ a: [UInt8], _ b: [UInt8]) -> String {
    if a.count != b.count { return "sizes differ: \(a.count) vs \(b.count)" }
    for i in 0..<a.count where a[i] != b[i] {
        return "pixel \(i / 4) channel \(i % 4): \(a[i]) vs \(b[i])"
    }
    return "identical"
}
