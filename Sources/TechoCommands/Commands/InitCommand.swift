// techo init: a new journal with its first page.
import Foundation
import TechoEditing
import TechoModel

enum InitCommand: TechoCommand {
    static let names = ["init"]
    static let usage = "init JOURNAL [--title T] [--size A5] [--dpi 300] [--landscape] [--background C] [--paper dots|grid|lines|blank]"
    static let summary = "create a journal (a NAME.techo folder) with its first page, p1"
    static let discussion = """
        Sizes: A4, A5, A6, B5, B6, Letter, Hobonichi, Weeks, TN, WxH in pixels or WxHmm; a side may
        be 'auto' for an endless page. The default is A5 at 300 dpi on white.
        """
    static let options = PageOptions.specs + [OptionSpec("title", value: "T", help: "the journal's title")]

    static func run(_ args: ParsedArguments, io: CommandIO) throws {
        let journalArg = try args.positionals(["JOURNAL"], command: "init")[0]
        let url = URL(fileURLWithPath: io.resolve(journalArg.text))
        if FileManager.default.fileExists(atPath: url.path) {
            throw EditError(.cannotCreate, "\(journalArg.text): already exists; choose another name or remove it")
        }
        let page = try PageOptions.page(id: "p1", args: args, inheriting: nil)
        let title = args.value("title")?.text ?? url.deletingPathExtension().lastPathComponent
        let journal: Journal
        do { journal = try Journal(title: title, pageOrder: ["p1"]) } catch {
            throw UsageError("--title: \(error)")
        }
        do {
            _ = try JournalStore.create(at: url, journal: journal, pages: [page])
        } catch let e as StorageError {
            throw EditError(.cannotCreate, "\(journalArg.text): \(e.message)")
        }
        io.out("\(journalArg.text)\n")
    }
}

/// The page options that `init` and `page add` share.
enum PageOptions {
    static let specs = [
        OptionSpec("size", value: "SIZE", help: "page size: A5 (default), A4, A6, B5, B6, Letter, Hobonichi, Weeks, TN, WxH, WxHmm"),
        OptionSpec("dpi", value: "DPI", help: "resolution for mm/in units and print metadata (default 300)"),
        OptionSpec("landscape", help: "turn the page size sideways"),
        OptionSpec("background", value: "COLOR", help: "background colour (default white)"),
        OptionSpec("paper", value: "PATTERN", help: "paper pattern: blank, dots, grid or lines"),
        OptionSpec("margin", value: "LEN", help: "space kept around the content of an endless (auto) page"),
    ]

    /// A page from the options, starting from `base` (the journal's last page) when given.
    static func page(id: String, args: ParsedArguments, inheriting base: Page?) throws -> Page {
        let dpi = try args.arg("dpi")?.number(FieldRules.dpi) ?? base?.dpi ?? Page.defaultDPI
        var size = base?.size
        if let base, args.has("dpi"), !args.has("size"), !args.has("landscape") {
            // A new resolution alone keeps the inherited page's size on paper (an A4 page stays
            // A4), its pixels scaled to the new dpi; an endless side stays endless.
            let k = dpi / base.dpi
            size = PageSize(width: base.size.width.map { ($0 * k).rounded() }, height: base.size.height.map { ($0 * k).rounded() })
        } else if args.has("size") || args.has("landscape") || size == nil || args.has("dpi") {
            let text = args.value("size")?.text ?? PageSize.defaultName
            do {
                size = try PageSize(parsing: text, dpi: dpi, landscape: args.has("landscape"))
            } catch {
                let tok = args.value("size") ?? args.value("landscape") ?? args.value("dpi")
                throw UsageError("--size\(tok.map { " (argument \($0.index))" } ?? ""): \(error)")
            }
        }
        var background = base?.background ?? Background()
        if let c = try args.arg("background")?.color() { background.color = c }
        if let p = args.arg("paper") {
            let pattern = try p.choice(Paper.Pattern.allCases.map(\.rawValue))
            background.paper =
                pattern == "blank"
                ? nil
                : try Paper(
                    pattern: Paper.Pattern(rawValue: pattern)!, spacing: Paper.defaultSpacing.pixels(dpi: dpi),
                    color: background.paper?.color ?? Paper.defaultColor, margin: background.paper?.margin ?? 0)
        }
        let margin = try args.arg("margin")?.length(dpi: dpi, FieldRules.margin) ?? base?.margin ?? 0
        do {
            return try Page(id: id, size: size, dpi: dpi, background: background, margin: margin)
        } catch {
            throw UsageError("page \(id): \(error)")
        }
    }
}
