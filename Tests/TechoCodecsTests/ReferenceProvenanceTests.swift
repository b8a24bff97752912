// Every committed reference and made input has the EXPECTED.tsv row that says what made it
// (Fixtures/README.md; `make references` remakes them with scripts/references/).
import Foundation
import Testing

@Suite struct ReferenceProvenanceTests {
    /// The regular files under `folder`, as paths relative to it.
    private func files(under folder: String) throws -> Set<String> {
        let enumerator = try #require(FileManager.default.enumerator(atPath: folder))
        var out: Set<String> = []
        for case let path as String in enumerator {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: "\(folder)/\(path)", isDirectory: &isDirectory), !isDirectory.boolValue {
                out.insert(path)
            }
        }
        return out
    }

    /// Each file under a corpus's `ref/` is the reference of a row, and each row's reference is
    /// there: a reference added without a row (and so without the rule that made it) fails.
    @Test(arguments: ["pngsuite", "libpng", "jpeg"])
    func everyReferenceIsARowsReference(_ corpus: String) throws {
        let named = Set(corpusRows(corpus).compactMap { $0.fields["reference"] }.filter { $0 != "-" })
        let present = Set(try files(under: "\(fixturesDirectory)/\(corpus)/ref").map { "ref/\($0)" })
        #expect(!present.isEmpty)
        #expect(present.subtracting(named).sorted() == [], "references no row names")
        #expect(named.subtracting(present).sorted() == [], "rows whose reference is missing")
    }

    /// Each JPEG made for the corpus (`jpeg/generated/`) has a row whose note says how.
    @Test func everyMadeJPEGHasARowThatSaysHow() throws {
        let rows = corpusRows("jpeg").filter { $0.file.hasPrefix("generated/") }
        let present = Set(try files(under: "\(fixturesDirectory)/jpeg/generated").map { "generated/\($0)" })
        #expect(present.count == 26)
        #expect(Set(rows.map(\.file)) == present)
        for row in rows { #expect(!(row.fields["note"] ?? "").isEmpty, "\(row.file) has no note") }
    }
}
