// techo export: pages to PNG, JPEG or PDF.
import Foundation
import TechoEditing
import TechoExport
import TechoModel
import TechoRender

enum ExportCommand: TechoCommand {
    static let names = ["export"]
    static let usage =
        "export JOURNAL [--page ID]... [-o PATH] [--scale S | --dpi D] [--format png|jpeg|pdf] [--quality Q] [--raster | --bleed MM]"
        + " [--force] [--shard K/N]"
    static let summary = "render pages to print-quality PNG (or JPEG, or one PDF); prints the files written"
    static let discussion = """
        Pages are written as NN-PAGEID.png into the folder -o names (default: NAME-pages beside the
        journal). With one page and an -o ending in .png, .jpg or .pdf, -o names the file itself
        (unless a folder of that name exists: then, as with cp, the pages go into it); a PDF holds
        every exported page at its physical size. --scale 2 of a 300 dpi page renders at 600 dpi.
        A PDF is vectors: ink and shapes as paths, photos and pictures at their own resolution
        (an unchanged JPEG as its own bytes), SVG stickers as SVG; the scale sets the resolution
        of what has none (shadows, tape, outlines). --raster writes each page as one picture instead.
        A PNG or JPEG page whose file is already what this export would write (same page, pictures,
        settings and techo, the file untouched) is not rendered again; --force renders it anyway.
        --shard K/N exports the pages at positions K, K+N, K+2N, ... of the journal (counted from 0),
        under the names the whole export gives them, so N shards together write the same files as
        one export; --shard /N takes K from JOB_COMPLETION_INDEX, as a Kubernetes Indexed Job sets
        it. With -o FILE.pdf each shard writes its pages into that PDF; a shard without pages
        writes nothing.
        """
    static let options = [
        OptionSpec("page", value: "ID", repeatable: true, help: "export only this page"),
        OptionSpec("output", short: "o", value: "PATH", help: "output folder, or file for one page or a PDF"),
        OptionSpec("scale", value: "S", help: "render scale (default 1)"),
        OptionSpec("dpi", value: "D", help: "render at this resolution instead"),
        OptionSpec("format", value: "F", help: "png (default), jpeg or pdf; implied by -o's extension"),
        OptionSpec("quality", value: "Q", help: "JPEG quality 1-100 (default 92)"),
        OptionSpec("force", help: "render every page, even one whose file is already what this export would write"),
        OptionSpec("raster", help: "PDF of page pictures instead of vectors"),
        OptionSpec("bleed", value: "MM", help: "PDF bleed in millimetres: the background reaches past the page, with a TrimBox"),
        OptionSpec("shard", value: "K/N", help: "only the pages at positions K modulo N (from 0); /N: K from JOB_COMPLETION_INDEX"),
    ]

    static func run(_ args: ParsedArguments, io: CommandIO) throws {
        let pos = try args.positionals(["JOURNAL"], command: "export")
        try args.exclusive(["scale", "dpi"], command: "export")
        // A shard is a share of the whole journal; a share of a hand-picked list would put a
        // page in a different shard depending on the others picked.
        try args.exclusive(["page", "shard"], command: "export")
        let shard = try args.arg("shard").map { try Shard($0, environment: ProcessInfo.processInfo.environment) }
        // Exports only read: no lock, nothing written into the journal (docs/decisions/reading.md).
        let (store, journal, pages) = try JournalAccess.snapshot(pos[0], io: io)
        var chosen: [(position: Int, page: Page)] = []
        let wanted = args.args("page")
        if wanted.isEmpty {
            chosen = journal.pageOrder.enumerated().compactMap { i, id in pages[id].map { (i + 1, $0) } }
        } else {
            for a in wanted {
                let page = try JournalAccess.page(a, in: pages, journal: journal)
                chosen.append((journal.pageOrder.firstIndex(of: page.id)! + 1, page))
            }
        }
        if let shard {
            try checkShardOutput(args.arg("output"), pages: chosen.count, io: io)
            // Positions are 1-based in file names, 0-based in K/N.
            chosen = chosen.filter { shard.holds($0.position - 1) }
            if chosen.isEmpty {
                io.err("techo: shard \(shard.index)/\(shard.count) has no pages (the journal has \(journal.pageOrder.count)); nothing written\n")
                return
            }
        }
        let journalURL = URL(fileURLWithPath: io.resolve(pos[0].text))
        let defaultFolder = journalURL.deletingLastPathComponent()
            .appendingPathComponent(journalURL.deletingPathExtension().lastPathComponent + "-pages")
        let files = try export(
            chosen, total: journal.pageOrder.count, title: journal.title, args: args, defaultFolder: defaultFolder,
            renderer: PageRenderer(assetURL: store.assetURL), io: io,
            // A page edited since its file was written may be patched from it: the page as it
            // was before each of the last history steps, to find the one the file was made for.
            earlier: { store.earlierVersions(ofPage: $0) })
        for f in files { io.out("\(f.path)\n") }
    }

    /// Refuses an -o that names one picture when the whole export has several pages, as the
    /// whole export does: N shards of one page each would all write that one file.
    static func checkShardOutput(_ out: Arg?, pages: Int, io: CommandIO) throws {
        guard let out, pages > 1, let implied = ExportFormat.implied(by: out.text), implied != .pdf else { return }
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: io.resolve(out.text), isDirectory: &isDirectory) && isDirectory.boolValue { return }
        throw UsageError(
            "-o (argument \(out.token.index)): '\(out.text)' names one file but the journal has \(pages) pages; give a folder for the shards' pages")
    }

    /// Shared by export and build: decides the outputs from -o/--format/--scale and writes them.
    static func export(
        _ chosen: [(position: Int, page: Page)], total: Int, title: String, args: ParsedArguments, defaultFolder: URL,
        renderer: PageRenderer, io: CommandIO, earlier: (String) -> [Page] = { _ in [] }, beforeCommit: () throws -> Void = {}
    ) throws -> [URL] {
        var settings = ExportSettings.fromEnvironment()
        settings.force = args.has("force")
        let out = args.arg("output")
        let implied = out.flatMap { ExportFormat.implied(by: $0.text) }
        if let f = args.arg("format") {
            let name = try f.choice(["png", "jpeg", "jpg", "pdf"])
            settings.format = name == "jpg" ? .jpeg : ExportFormat(rawValue: name)!
            if let implied, implied != settings.format { throw UsageError("--format \(name) does not match -o '\(out!.text)'") }
        } else if let implied {
            settings.format = implied
        }
        if let q = args.arg("quality") {
            guard settings.format == .jpeg else { throw UsageError("--quality applies to JPEG export") }
            settings.quality = try q.integer(in: 1...100)
        }
        if args.has("raster") {
            guard settings.format == .pdf else { throw UsageError("--raster applies to PDF export") }
            settings.rasterPDF = true
        }
        if let b = args.arg("bleed") {
            guard settings.format == .pdf, !settings.rasterPDF else { throw UsageError("--bleed applies to the vector PDF (not with --raster)") }
            settings.bleed = try b.number(in: 0...50)
        }
        if let s = args.arg("scale") {
            let v = try s.number(in: 0.01...64)
            settings.scale = { _ in v }
        } else if let d = args.arg("dpi") {
            let v = try d.number(in: 10...9600)
            settings.scale = { v / $0.dpi }
        }
        var isFile = false
        var target = defaultFolder
        if let out {
            target = URL(fileURLWithPath: io.resolve(out.text))
            // An existing folder is written into, whatever its name (like cp): `-o shots.png`
            // where shots.png/ is a folder puts the pages inside it.
            var isDirectory: ObjCBool = false
            let existingFolder = FileManager.default.fileExists(atPath: target.path, isDirectory: &isDirectory) && isDirectory.boolValue
            if implied != nil && !existingFolder {
                isFile = true
                if settings.format != .pdf && chosen.count > 1 {
                    throw UsageError(
                        "-o (argument \(out.token.index)): '\(out.text)' names one file but \(chosen.count) pages are exported; give a folder or --page ID")
                }
            }
        }
        let folder = isFile ? target.deletingLastPathComponent() : target
        if settings.format == .pdf && !isFile {
            target = folder.appendingPathComponent((title.isEmpty ? "journal" : safeName(title)) + ".pdf")
            isFile = true
        }
        let folderExisted = FileManager.default.fileExists(atPath: folder.path)
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            var isDirectory: ObjCBool = false
            let why =
                FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory) && !isDirectory.boolValue
                ? " (a file of that name exists; give a folder or a file name ending in .png, .jpg or .pdf)" : ""
            throw EditError(.cannotCreate, "\(folder.path): cannot create the output folder\(why)")
        }
        let outputs = Exporter.outputs(for: chosen, total: total, target: target, isFile: isFile, format: settings.format)
        do {
            return try Exporter.run(
                pages: chosen.map(\.page), outputs: outputs, title: title, settings: settings, renderer: renderer, earlier: earlier,
                showProgress: io.stderrIsTerminal,
                err: io.err, beforeCommit: beforeCommit)
        } catch {
            // A failed export leaves no folder of its own making behind (rmdir removes it only empty).
            if !folderExisted { rmdir(folder.path) }
            throw error
        }
    }

    /// A title made safe as a file name.
    static func safeName(_ s: String) -> String {
        let cleaned = s.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" ? $0 : "-" }
        return String(cleaned.prefix(64))
    }
}
