// `techo export --shard K/N`: each shard holds the pages at positions K modulo N, under the
// names the whole export gives them, so N shards together are one export, file for file and
// byte for byte; K from JOB_COMPLETION_INDEX; every bad value refused; PDF shards merged by
// qpdf --collate come out in journal order.
import Foundation
import TechoTestSupport
import Testing

@Suite struct ShardTests {
    static let pageCount = 10

    /// A journal of ten small pages, each with its own colour and the text `Page N`, so every
    /// page's file differs from every other's.
    static func journal(_ ws: Workspace) throws {
        #expect(try ws.run("init", "j.techo", "--size", "60x40", "--dpi", "50", "--title", "Shards").code == 0)
        for n in 1...pageCount {
            if n > 1 { #expect(try ws.run("page", "add", "j.techo").code == 0) }
            let colour = String(format: "#%02x%02x%02x", 255 - n * 20, 120 + n * 10, n * 25)
            #expect(try ws.run("background", "j.techo", "p\(n)", "--color", colour).code == 0)
            #expect(try ws.run("add", "text", "j.techo", "p\(n)", "Page \(n)", "--size", "10", "--at", "30,20").code == 0)
        }
    }

    /// Every file in `folder` by name, with its bytes (empty when the folder does not exist).
    static func files(_ ws: Workspace, _ folder: String) throws -> [String: [UInt8]] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: ws.url(folder).path)) ?? []
        var out: [String: [UInt8]] = [:]
        for n in names { out[n] = try ws.bytes(folder + "/" + n) }
        return out
    }

    /// The names the whole export gives the pages at 0-based `positions`.
    static func names(_ positions: [Int]) -> Set<String> {
        Set(positions.map { String(format: "%02d-p%d.png", $0 + 1, $0 + 1) })
    }

    /// This process's environment without JOB_COMPLETION_INDEX, plus `adding`.
    static func environment(adding: [String: String] = [:]) -> [String: String] {
        var env = ProcessInfo.processInfo.environment
        env["JOB_COMPLETION_INDEX"] = nil
        return env.merging(adding) { $1 }
    }

    static func run(_ ws: Workspace, _ args: [String], environment: [String: String] = ShardTests.environment()) throws -> RunResult {
        try ChildProcess.run(Workspace.binary, args, in: ws.dir, environment: environment)
    }

    @Test func eachShardHoldsItsPagesAndTogetherTheyAreOneExport() throws {
        let ws = try Workspace()
        try Self.journal(ws)
        #expect(try Self.run(ws, ["export", "j.techo", "-o", "whole"]).code == 0)
        let whole = try Self.files(ws, "whole")
        #expect(Set(whole.keys) == Self.names(Array(0..<Self.pageCount)))
        for n in [1, 3, 7] {
            var union: [String: [UInt8]] = [:]
            for k in 0..<n {
                let folder = "n\(n)-k\(k)"
                let r = try Self.run(ws, ["export", "j.techo", "-o", folder, "--shard", "\(k)/\(n)"])
                #expect(r.code == 0, "\(k)/\(n): \(r.err)")
                let shard = try Self.files(ws, folder)
                let mine = (0..<Self.pageCount).filter { $0 % n == k }
                #expect(Set(shard.keys) == Self.names(mine), "shard \(k)/\(n) holds exactly the pages at \(mine)")
                let printed = Set(r.out.split(separator: "\n").map { URL(fileURLWithPath: String($0)).lastPathComponent })
                #expect(printed == Set(shard.keys), "shard \(k)/\(n) prints the files it wrote")
                for (name, bytes) in shard {
                    #expect(union[name] == nil, "\(name) is in two shards of \(n)")
                    union[name] = bytes
                }
            }
            #expect(Set(union.keys) == Set(whole.keys), "the \(n) shards name the same files as one export")
            for (name, bytes) in whole { #expect(union[name] == bytes, "\(name): the \(n) shards' bytes are one export's") }
        }
        // As a Job writes them: every shard into one shared folder.
        for k in 0..<3 { #expect(try Self.run(ws, ["export", "j.techo", "-o", "shared", "--shard", "\(k)/3"]).code == 0) }
        #expect(try Self.files(ws, "shared") == whole)
    }

    @Test func theShardIndexComesFromJobCompletionIndex() throws {
        let ws = try Workspace()
        try Self.journal(ws)
        let r = try Self.run(ws, ["export", "j.techo", "-o", "env", "--shard", "/3"], environment: Self.environment(adding: ["JOB_COMPLETION_INDEX": "1"]))
        #expect(r.code == 0, "\(r.err)")
        #expect(Set(try Self.files(ws, "env").keys) == Self.names([1, 4, 7]))
        #expect(try Self.run(ws, ["export", "j.techo", "-o", "given", "--shard", "1/3"]).code == 0)
        #expect(try Self.files(ws, "env") == Self.files(ws, "given"))
        // A K on the command line wins over the variable.
        let explicit = try Self.run(
            ws, ["export", "j.techo", "-o", "explicit", "--shard", "0/3"], environment: Self.environment(adding: ["JOB_COMPLETION_INDEX": "2"]))
        #expect(explicit.code == 0)
        #expect(Set(try Self.files(ws, "explicit").keys) == Self.names([0, 3, 6, 9]))

        let unset = try Self.run(ws, ["export", "j.techo", "-o", "unset", "--shard", "/3"])
        #expect(unset.code == 64)
        #expect(unset.err.contains("--shard") && unset.err.contains("JOB_COMPLETION_INDEX") && unset.err.contains("not set"), "\(unset.err)")
        #expect(!ws.exists("unset"))
        for bad in ["3", "7", "-1", "x", "", " 1", "1.0", "99999999999999999999"] {
            let r = try Self.run(ws, ["export", "j.techo", "-o", "bad", "--shard", "/3"], environment: Self.environment(adding: ["JOB_COMPLETION_INDEX": bad]))
            #expect(r.code == 64, "JOB_COMPLETION_INDEX='\(bad)'")
            #expect(r.err.contains("JOB_COMPLETION_INDEX") && r.err.contains("'\(bad)'") && r.err.contains("0 to 2"), "\(r.err)")
            #expect(!ws.exists("bad"), "nothing written for JOB_COMPLETION_INDEX='\(bad)'")
        }
    }

    @Test func everyBadShardIsAUsageErrorNamingIt() throws {
        let ws = try Workspace()
        try Self.journal(ws)
        let bad = [
            "3/3", "4/3", "0/0", "/0", "1/0", "x", "1", "3", "1/", "a/3", "1/b", "-1/3", "+1/3", "1/-3", " 1/3", "1/3 ", "1/2/3", "1.0/3", "",
            "0/100001", "99999999999999999999/3", "1/99999999999999999999",
        ]
        for value in bad {
            let r = try Self.run(ws, ["export", "j.techo", "-o", "out", "--shard", value])
            #expect(r.code == 64, "--shard '\(value)' exits 64, got \(r.code): \(r.err)")
            #expect(r.err.contains("--shard") && r.err.contains("'\(value)'"), "the message names --shard and '\(value)': \(r.err)")
            #expect(!ws.exists("out"), "nothing written for --shard '\(value)'")
        }
        let withPage = try Self.run(ws, ["export", "j.techo", "--page", "p1", "--shard", "0/2"])
        #expect(withPage.code == 64 && withPage.err.contains("--page") && withPage.err.contains("--shard"), "\(withPage.err)")
        // One picture file for a journal of many pages is refused as the whole export refuses it.
        let oneFile = try Self.run(ws, ["export", "j.techo", "-o", "one.png", "--shard", "0/10"])
        #expect(oneFile.code == 64 && oneFile.err.contains("one.png"), "\(oneFile.err)")
        #expect(!ws.exists("one.png"))
        #expect(try Self.run(ws, ["export", "j.techo", "-o", "one.png"]).code == 64)
    }

    @Test func aShardWithoutPagesWritesNothingAndSucceeds() throws {
        let ws = try Workspace()
        try Self.journal(ws)
        for args in [["-o", "empty"], ["-o", "empty.pdf"], ["--format", "pdf"], []] {
            let r = try Self.run(ws, ["export", "j.techo", "--shard", "12/20"] + args)
            #expect(r.code == 0, "\(args): \(r.err)")
            #expect(r.out.isEmpty, "\(args): no file listed")
            #expect(r.err.contains("no pages"), "\(r.err)")
        }
        #expect(!ws.exists("empty") && !ws.exists("empty.pdf") && !ws.exists("j-pages"))
        // The last shard that has a page writes just it.
        let last = try Self.run(ws, ["export", "j.techo", "-o", "last", "--shard", "9/20"])
        #expect(last.code == 0)
        #expect(Set(try Self.files(ws, "last").keys) == Self.names([9]))
    }

    @Test func pdfShardsMergedByQPDFCollateAreInJournalOrder() throws {
        let ws = try Workspace()
        try Self.journal(ws)
        #expect(try Self.run(ws, ["export", "j.techo", "-o", "whole.pdf"]).code == 0)
        let wholeText = try PDFTools.text("whole.pdf", in: ws.dir)
        let order = (1...Self.pageCount).map { "Page \($0)" }
        #expect(Self.pages(wholeText) == order)
        for n in [3, 7] {
            var parts: [String] = []
            for k in 0..<n {
                let part = "n\(n)-part-\(k).pdf"
                let r = try Self.run(ws, ["export", "j.techo", "-o", part, "--shard", "\(k)/\(n)"])
                #expect(r.code == 0, "\(r.err)")
                #expect(Self.pages(try PDFTools.text(part, in: ws.dir)) == (0..<Self.pageCount).filter { $0 % n == k }.map { "Page \($0 + 1)" })
                parts.append(part)
            }
            let merged = "merged-\(n).pdf"
            // As docs/deploy.md merges them: shard 0's part first keeps the document's title.
            let q = try PDFTools.run("qpdf", [parts[0], "--collate", "--pages"] + parts + ["--", merged], in: ws.dir)
            #expect(q.code == 0, "\(q.err)")
            #expect(try PDFTools.qpdfProblems(merged, in: ws.dir) == nil)
            #expect(Self.pages(try PDFTools.text(merged, in: ws.dir)) == order, "the \(n) shards merged are in journal order")
            #expect(try PDFTools.pageSizes(merged, in: ws.dir) == PDFTools.pageSizes("whole.pdf", in: ws.dir))
            #expect(try PDFTools.info(merged, in: ws.dir)["Title"] == "Shards")
        }
    }

    /// The text of each page of a PDF's `pdftotext` output, trimmed.
    static func pages(_ text: String) -> [String] {
        var pages = text.components(separatedBy: "\u{0C}").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        if pages.last == "" { pages.removeLast() }
        return pages
    }
}
