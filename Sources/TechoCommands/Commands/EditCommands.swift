// techo set | rm | raise | lower | clear | background: change what is already on a page.
import Foundation
import TechoEditing
import TechoGeometry
import TechoModel

enum SetCommand: TechoCommand {
    static let names = ["set"]
    static let usage =
        "set JOURNAL PAGE ID [--opacity A] [--hide | --show] [--lock | --unlock] [--at X,Y] [--scale S] [--rotate DEG] [--text T] [text, photo or outline options] | set JOURNAL PAGE STROKEID [--color C] [--width W] [--opacity A]"
    static let summary = "change an element's or a stroke's properties (absolute values; use 'gesture' to move by amounts)"
    static let options =
        [
            OptionSpec("opacity", value: "A", help: "opacity from 0 to 1"),
            OptionSpec("hide", help: "keep the element but do not draw it"),
            OptionSpec("show", help: "draw a hidden element again"),
            OptionSpec("lock", help: "keep the element where it is: no gesture moves it, the editor does not pick it on the page"),
            OptionSpec("unlock", help: "let gestures move a locked element again"),
            OptionSpec("at", value: "X,Y", help: "move the centre to this page point"),
            OptionSpec("scale", value: "S", help: "set the scale"),
            OptionSpec("rotate", value: "DEG", help: "set the rotation"),
            OptionSpec("text", value: "T", help: "replace a text sticker's text"),
            OptionSpec("width", value: "W", help: "a stroke's pen width (a stroke takes --color, --width and --opacity)"),
        ] + TextOptions.specs.filter { $0.name != "outline" } + [
            OptionSpec("outline", value: "COLOR,W|none", help: "set or remove the outline (text, image, photo)"),
            OptionSpec("frame", value: "F", help: "photo frame: none, border or polaroid"),
            OptionSpec("radius", value: "R", help: "photo corner radius"),
            OptionSpec("shadow", value: "on|off", help: "photo drop shadow"),
        ] + PhotoAdjustments.specs

    static func run(_ args: ParsedArguments, io: CommandIO) throws {
        let pos = try args.positionals(["JOURNAL", "PAGE", "ID"], command: "set")
        try args.exclusive(["hide", "show"], command: "set")
        try args.exclusive(["lock", "unlock"], command: "set")
        guard !args.options.isEmpty else { throw UsageError("set: nothing to change; see 'techo set --help'") }
        let store = try JournalAccess.open(pos[0], io: io)
        let fontFile = try TextOptions.fontFile(args, io: io)
        try JournalAccess.editPage(pos[1], of: store, description: "set \(pos[2].text)", importing: fontFile.map { [$0] } ?? []) { page in
            if try JournalAccess.isStroke(pos[2], on: page) { return try restyleStroke(pos[2], args: args, on: &page) }
            if args.has("width") { throw UsageError("set: --width applies to a stroke; '\(pos[2].text)' is an element") }
            _ = try JournalAccess.elementIndex(pos[2], on: page)
            var patch = ElementPatch()
            if let a = args.arg("opacity") { patch.opacity = try a.number(FieldRules.opacity) }
            if args.has("hide") { patch.hidden = true }
            if args.has("show") { patch.hidden = false }
            if args.has("lock") { patch.locked = true }
            if args.has("unlock") { patch.locked = false }
            if let a = args.arg("at") { patch.at = try a.point(dpi: page.dpi) }
            if let a = args.arg("scale") { patch.scale = try a.number(FieldRules.scale) }
            if let a = args.arg("rotate") { patch.rotate = try a.number(FieldRules.rotation) }
            if let a = args.arg("text") { patch.text = a.text }
            try TextOptions.patch(args, dpi: page.dpi, fontFile: fontFile, into: &patch)
            if let a = args.arg("outline") { patch.outline = a.text == "none" ? .some(nil) : .some(try PlacementOptions.outline(a, dpi: page.dpi)) }
            try PhotoAdjustments.patch(args, dpi: page.dpi, into: &patch)
            if let s = args.arg("shadow") { patch.shadow = try s.choice(["on", "off"]) == "on" }
            do throws(EditError) { try PageEdits.set(patch, on: pos[2].text, of: &page) } catch { throw optionRefusal(error) }
        }
    }
}

extension SetCommand {
    /// `set` on a stroke: --color, --width and --opacity, nothing else.
    static func restyleStroke(_ id: Arg, args: ParsedArguments, on page: inout Page) throws {
        let allowed: Set<String> = ["color", "width", "opacity"]
        if let other = args.options.map(\.0).first(where: { !allowed.contains($0) }) {
            throw UsageError("set: --\(other) does not apply to stroke '\(id.text)'; a stroke takes --color, --width and --opacity")
        }
        let color = try args.arg("color")?.color()
        let width = try args.arg("width")?.length(dpi: page.dpi, FieldRules.strokeWidth)
        let opacity = try args.arg("opacity")?.number(FieldRules.opacity)
        do throws(EditError) {
            try PageEdits.restyleStroke(id.text, color: color, width: width, opacity: opacity, on: &page)
        } catch {
            throw optionRefusal(error)
        }
    }
}

enum RemoveCommand: TechoCommand {
    static let names = ["rm"]
    static let usage = "rm JOURNAL PAGE ID..."
    static let summary = "remove elements or single strokes (by their ids) from a page (undo brings them back)"
    static let options: [OptionSpec] = []

    static func run(_ args: ParsedArguments, io: CommandIO) throws {
        guard args.positionals.count >= 3 else {
            _ = try args.positionals(["JOURNAL", "PAGE", "ID"], command: "rm")
            return
        }
        let journalArg = Arg(token: args.positionals[0], name: "JOURNAL"), pageArg = Arg(token: args.positionals[1], name: "PAGE")
        let ids = args.positionals.dropFirst(2).map { Arg(token: $0, name: "ID") }
        let store = try JournalAccess.open(journalArg, io: io)
        try JournalAccess.editPage(pageArg, of: store, description: "rm \(ids.map(\.text).joined(separator: " "))") { page in
            for id in ids { _ = try JournalAccess.isStroke(id, on: page) }
            try PageEdits.removeItems(ids.map(\.text), from: &page)
        }
    }
}

/// raise and lower: move an element up or down the page's stack.
enum Restack {
    static let options = [
        OptionSpec("by", value: "N", help: "move by N places (default 1)"),
        OptionSpec("top", help: "move to the top"),
        OptionSpec("bottom", help: "move to the bottom"),
    ]

    static func run(_ args: ParsedArguments, io: CommandIO, up: Bool) throws {
        let name = up ? "raise" : "lower"
        let pos = try args.positionals(["JOURNAL", "PAGE", "ID"], command: name)
        try args.exclusive(["by", "top", "bottom"], command: name)
        let store = try JournalAccess.open(pos[0], io: io)
        try JournalAccess.editPage(pos[1], of: store, description: "\(name) \(pos[2].text)") { page in
            let i = try JournalAccess.elementIndex(pos[2], on: page)
            let n = try args.arg("by")?.integer(in: 1...1_000_000) ?? 1
            let target: StackTarget = args.has("top") ? .top : args.has("bottom") ? .bottom : .by(up ? n : -n)
            PageEdits.restack(i, on: &page, to: target)
        }
    }
}

enum RaiseCommand: TechoCommand {
    static let names = ["raise"]
    static let usage = "raise JOURNAL PAGE ID [--by N | --top]"
    static let summary = "bring an element forward (drawn later, on top)"
    static let options = Restack.options
    static func run(_ args: ParsedArguments, io: CommandIO) throws { try Restack.run(args, io: io, up: true) }
}

enum LowerCommand: TechoCommand {
    static let names = ["lower"]
    static let usage = "lower JOURNAL PAGE ID [--by N | --bottom]"
    static let summary = "send an element backward (drawn earlier, underneath)"
    static let options = Restack.options
    static func run(_ args: ParsedArguments, io: CommandIO) throws { try Restack.run(args, io: io, up: false) }
}

enum ClearCommand: TechoCommand {
    static let names = ["clear"]
    static let usage = "clear JOURNAL PAGE [--ink | --all]"
    static let summary = "remove the page's ink layers (default), or with --all every element"
    static let options = [OptionSpec("ink", help: "remove every ink layer (the default)"), OptionSpec("all", help: "remove every element")]

    static func run(_ args: ParsedArguments, io: CommandIO) throws {
        let pos = try args.positionals(["JOURNAL", "PAGE"], command: "clear")
        try args.exclusive(["ink", "all"], command: "clear")
        let store = try JournalAccess.open(pos[0], io: io)
        let scope: ClearScope = args.has("all") ? .all : .ink
        try JournalAccess.editPage(pos[1], of: store, description: PageEdits.description(of: scope)) { page in PageEdits.clear(scope, on: &page) }
    }
}

enum BackgroundCommand: TechoCommand {
    static let names = ["background"]
    static let usage =
        "background JOURNAL PAGE [--color C|none] [--image FILE [--mode M] [--opacity A] | --no-image] [--paper P] [--spacing S] [--paper-color C] [--paper-margin M]"
    static let summary = "set the page's background colour, image and paper pattern"
    static let options = [
        OptionSpec("color", value: "C", help: "background colour, or none for transparent"),
        OptionSpec("image", value: "FILE", help: "an image (PNG, JPEG, HEIC, WebP, SVG, ...) behind everything"),
        OptionSpec("mode", value: "M", help: "tile (default), cover, contain, stretch or center"),
        OptionSpec("opacity", value: "A", help: "image opacity from 0 to 1"),
        OptionSpec("no-image", help: "remove the background image"),
        OptionSpec("paper", value: "P", help: "blank, dots, grid or lines"),
        OptionSpec("spacing", value: "S", help: "paper spacing (default 5mm)"),
        OptionSpec("paper-color", value: "C", help: "colour of the dots or lines"),
        OptionSpec("paper-margin", value: "M", help: "blank margin around the pattern"),
    ]

    static func run(_ args: ParsedArguments, io: CommandIO) throws {
        let pos = try args.positionals(["JOURNAL", "PAGE"], command: "background")
        try args.exclusive(["image", "no-image"], command: "background")
        guard !args.options.isEmpty else { throw UsageError("background: nothing to change; see 'techo background --help'") }
        let store = try JournalAccess.open(pos[0], io: io)
        let image = try args.arg("image").map { try JournalAccess.readImage($0, io: io, keepGPS: false).asset }
        let asset = image?.ref
        try JournalAccess.editPage(pos[1], of: store, description: "background \(pos[1].text)", importing: image.map { [$0] } ?? []) { page in
            var patch = BackgroundPatch()
            if let c = args.arg("color") { patch.color = .some(c.text == "none" ? nil : try c.color()) }
            patch.image = asset
            patch.removeImage = args.has("no-image")
            patch.mode = try args.arg("mode").map { BackgroundImage.Mode(rawValue: try $0.choice(BackgroundImage.Mode.allCases.map(\.rawValue)))! }
            patch.opacity = try args.arg("opacity")?.number(FieldRules.opacity)
            patch.paper = try args.arg("paper").map { Paper.Pattern(rawValue: try $0.choice(Paper.Pattern.allCases.map(\.rawValue)))! }
            patch.paperSpacing = try args.arg("spacing")?.length(dpi: page.dpi, FieldRules.paperSpacing)
            patch.paperColor = try args.arg("paper-color")?.color()
            patch.paperMargin = try args.arg("paper-margin")?.length(dpi: page.dpi, FieldRules.margin)
            do throws(EditError) { try PageEdits.setBackground(patch, of: &page) } catch {
                throw optionRefusal(error) { field in
                    ["paper.spacing": "--spacing", "paper.color": "--paper-color", "paper.margin": "--paper-margin", "image": "--image/--no-image"][field]
                        ?? optionLabel(field)
                }
            }
        }
    }
}
