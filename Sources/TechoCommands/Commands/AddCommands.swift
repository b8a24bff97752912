// techo add image | photo | text | washi: put a new element on a page and print its id.
import Foundation
import TechoEditing
import TechoGeometry
import TechoModel
import TechoRender
import TechoText

/// Options every placed element shares.
enum PlacementOptions {
    static let specs = [
        OptionSpec("id", value: "ID", help: "the element's id (default <type>-<n>)"),
        OptionSpec("at", value: "X,Y", help: "centre on the page, pixels or lengths such as 74mm,60mm (default: page centre)"),
        OptionSpec("rotate", value: "DEG", help: "rotation in degrees, clockwise"),
        OptionSpec("flip", value: "h|v|hv", help: "mirror left-right (h) and/or top-bottom (v)"),
        OptionSpec("opacity", value: "A", help: "opacity from 0 to 1 (default 1)"),
    ]
    static let sizing = [
        OptionSpec("width", value: "W", help: "shown width (keeps the aspect ratio)"),
        OptionSpec("height", value: "H", help: "shown height (keeps the aspect ratio)"),
        OptionSpec("scale", value: "S", help: "scale of the natural size (default 1)"),
        OptionSpec("slot", value: "NAME", help: "place it in this template slot instead"),
        OptionSpec("fit", value: "cover|contain", help: "how a picture fills its slot (default cover, clipped to the slot)"),
        OptionSpec("outline", value: "COLOR,W", help: "die-cut outline along the sticker's edge"),
        OptionSpec("keep-gps", help: "keep GPS location data in imported JPEG and HEIC photos (removed by default)"),
    ]

    /// Puts `new` on the page through the one operation every front end uses, with its
    /// refusals named as options (`--id`).
    static func add(_ new: NewElement, to page: inout Page, store: JournalStore, label: (String) -> String = optionLabel) throws -> String {
        do { return try PageEdits.add(new, to: &page, renderer: PageRenderer(assetURL: store.assetURL)) } catch { throw optionRefusal(error, label: label) }
    }

    /// The placement from --at, --scale/--width/--height, --rotate and --flip; nil when none is
    /// given (the default placement of `PageEdits.add`).
    static func placement(_ args: ParsedArguments, page: Page, natural: (Double, Double)?) throws -> Placement? {
        try args.exclusive(["width", "height", "scale"], command: "add")
        guard ["at", "scale", "width", "height", "rotate", "flip"].contains(where: args.has) else { return nil }
        let center = try args.arg("at")?.point(dpi: page.dpi) ?? page.center
        var scale = try args.arg("scale")?.number(FieldRules.scale) ?? 1
        if let (w, h) = natural {
            if let a = args.arg("width") { scale = try a.length(dpi: page.dpi, in: 0.01...1e6) / w }
            if let a = args.arg("height") { scale = try a.length(dpi: page.dpi, in: 0.01...1e6) / h }
        }
        let rotation = try args.arg("rotate")?.number(FieldRules.rotation) ?? 0
        let flip = try args.arg("flip")?.choice(["h", "v", "hv", "vh"]) ?? ""
        do {
            return try Placement(center: center, scale: scale, rotation: rotation, flipH: flip.contains("h"), flipV: flip.contains("v"))
        } catch {
            throw UsageError("add: \(error)")
        }
    }

    static func opacity(_ args: ParsedArguments) throws -> Double { try args.arg("opacity")?.number(FieldRules.opacity) ?? 1 }

    /// `COLOR,WIDTH`: the colour may itself hold commas (`rgb(1,2,3),4`).
    static func outline(_ a: Arg?, dpi: Double) throws -> Outline? {
        guard let a else { return nil }
        guard let comma = a.text.lastIndex(of: ",") else { throw a.fail("expected COLOR,WIDTH such as white,12") }
        let color = try Arg(token: ArgumentToken(index: a.token.index, text: String(a.text[..<comma])), name: a.name).color()
        let width = try Arg.length(String(a.text[a.text.index(after: comma)...]), dpi: dpi, range: 0.01...1e4) {
            a.fail("expected COLOR,WIDTH with a width > 0: \($0)")
        }
        return try Outline(width: width, color: color)
    }

    static func slot(_ args: ParsedArguments, page: Page, kind: Slot.Kind?) throws -> Slot? {
        guard let a = args.arg("slot") else {
            if args.has("fit") { throw UsageError("--fit needs --slot") }
            return nil
        }
        for other in ["at", "width", "height", "scale", "rotate"] where args.has(other) {
            throw UsageError("--slot and --\(other) cannot be used together: the slot decides the placement")
        }
        guard let slot = page.slots.first(where: { $0.name == a.text }) else {
            let names = page.slots.map(\.name)
            throw EditError(
                .notFound,
                "--slot: page \(page.id) has no slot '\(a.text)'" + (names.isEmpty ? " (it has no slots)" : "; slots: \(names.joined(separator: ", "))"))
        }
        if let kind, slot.kind != kind, !(slot.kind == .image && kind == .photo) && !(slot.kind == .photo && kind == .image) {
            throw EditError(.invalid, "--slot: slot '\(slot.name)' is for \(slot.kind.rawValue), not \(kind.rawValue)")
        }
        return slot
    }
}

enum AddImageCommand: TechoCommand {
    static let names = ["add", "image"]
    static let usage =
        "add image JOURNAL PAGE FILE [--id ID] [--at X,Y] [--width W|--height H|--scale S] [--rotate DEG] [--flip h|v] [--opacity A] [--outline C,W] [--slot NAME]"
    static let summary = "add a sticker from a PNG, JPEG, HEIC, AVIF, WebP or SVG file; prints its id"
    static let options = PlacementOptions.specs + PlacementOptions.sizing

    static func run(_ args: ParsedArguments, io: CommandIO) throws { try AddPicture.run(args, io: io, photo: false) }
}

enum AddPhotoCommand: TechoCommand {
    static let names = ["add", "photo"]
    static let usage = "add photo JOURNAL PAGE FILE [image options] [--frame none|border|polaroid] [--radius R] [--shadow] [--crop X,Y,W,H] [--brightness B] …"
    static let summary = "add a photo (EXIF orientation applied, GPS removed) with frame, crop, corners, shadow and film adjustments; prints its id"
    static let options =
        PlacementOptions.specs + PlacementOptions.sizing + [
            OptionSpec("frame", value: "F", help: "none (default), border or polaroid"),
            OptionSpec("radius", value: "R", help: "corner radius"),
            OptionSpec("shadow", help: "a soft drop shadow"),
            OptionSpec("crop", value: "X,Y,W,H", help: "show only this part of the picture (natural pixels)"),
        ] + PhotoAdjustments.specs

    static func run(_ args: ParsedArguments, io: CommandIO) throws { try AddPicture.run(args, io: io, photo: true) }
}

/// Photo adjustment options, shared by `add photo` and `set`.
enum PhotoAdjustments {
    static let specs = PhotoContent.adjustmentRanges.map { name, range, _ in
        OptionSpec(name, value: "V", help: "\(name) from \(fmt(range.lowerBound)) to \(fmt(range.upperBound)) (default 0)")
    }

    /// The photo fields the options set (frame, radius, adjustments; not `--shadow`, which
    /// `add` and `set` spell differently), into `p`.
    static func patch(_ args: ParsedArguments, dpi: Double, into p: inout ElementPatch) throws {
        if let f = args.arg("frame") { p.frame = PhotoContent.Frame(rawValue: try f.choice(PhotoContent.Frame.allCases.map(\.rawValue)))! }
        if let r = args.arg("radius") { p.radius = try r.length(dpi: dpi, FieldRules.radius) }
        for (name, rule) in zip(PhotoContent.adjustmentRanges.map(\.0), FieldRules.adjustments) {
            if let a = args.arg(name) { p.adjustments[name] = try a.number(rule) }
        }
    }
}

enum AddPicture {
    static func run(_ args: ParsedArguments, io: CommandIO, photo: Bool) throws {
        let command = photo ? "add photo" : "add image"
        let pos = try args.positionals(["JOURNAL", "PAGE", "FILE"], command: command)
        let store = try JournalAccess.open(pos[0], io: io)
        let file = try JournalAccess.readImage(pos[2], io: io, keepGPS: args.has("keep-gps"))
        let asset = file.asset.ref
        let id: String = try JournalAccess.editPage(
            pos[1], of: store, description: "\(command) \(pos[2].text)",
            importing: [file.asset]
        ) { page in
            let natural = (Double(file.info.naturalWidth), Double(file.info.naturalHeight))
            let image = try ImageContent(
                asset: asset, naturalWidth: natural.0, naturalHeight: natural.1,
                outline: PlacementOptions.outline(args.arg("outline"), dpi: page.dpi))
            return try PlacementOptions.add(element(args, image: image, page: page, photo: photo), to: &page, store: store)
        }
        io.out("\(id)\n")
    }

    /// The new element `add image|photo|sticker` makes of `image` on `page`, from the options.
    static func element(_ args: ParsedArguments, image: ImageContent, page: Page, photo: Bool, command: String = "add image") throws -> NewElement {
        let natural = (image.naturalWidth, image.naturalHeight)
        var content = Element.Content.image(image)
        var shown = natural
        if photo {
            var p = PhotoContent(image: image)
            var patch = ElementPatch()
            try PhotoAdjustments.patch(args, dpi: page.dpi, into: &patch)
            if args.has("shadow") { patch.shadow = true }
            if let c = args.arg("crop") {
                let v = try c.numbers(count: 4, in: 0...1e6)
                p.crop = Rect(x: v[0], y: v[1], width: v[2], height: v[3])
                shown = (v[2], v[3])
            }
            do throws(EditError) { try patch.apply(to: &p) } catch { throw optionRefusal(error) }
            content = .photo(p)
        } else {
            for o in ["frame", "radius", "shadow", "crop"] where args.has(o) {
                throw UsageError("\(command): --\(o) is a photo option; use 'techo add photo'")
            }
        }
        var placement: Placement?
        var clip: SlotFrame?
        if let slot = try PlacementOptions.slot(args, page: page, kind: photo ? .photo : .image) {
            let fit = Slot.Fit(rawValue: try args.arg("fit")?.choice(["cover", "contain"]) ?? "cover")!
            var p = try slot.placement(width: shown.0, height: shown.1, fit: fit)
            if fit == .cover { clip = slot.frame }
            if let f = args.arg("flip") {
                let axes = try f.choice(["h", "v", "hv", "vh"])
                for ch in axes { try p.apply(.flip(ch == "h" ? .h : .v)) }
            }
            placement = p
        } else {
            placement = try PlacementOptions.placement(args, page: page, natural: shown)
        }
        return NewElement(id: args.arg("id")?.text, content: content, placement: placement, opacity: try PlacementOptions.opacity(args), clip: clip)
    }
}

enum AddTextCommand: TechoCommand {
    static let names = ["add", "text"]
    static let usage =
        "add text JOURNAL PAGE TEXT [--font F] [--weight W] [--italic] [--size S] [--color C] [--align left|center|right] [--max-width W] [--line-height L] [--letter-spacing P] [--outline C,W] [--at X,Y] [--rotate DEG]"
    static let summary = "add a text sticker (any script, with emoji); prints its id"
    static let options =
        PlacementOptions.specs + TextOptions.specs + [
            OptionSpec("scale", value: "S", help: "scale (default 1)"),
            OptionSpec("slot", value: "NAME", help: "place it in this template text slot (position, width, alignment)"),
        ]

    static func run(_ args: ParsedArguments, io: CommandIO) throws {
        let pos = try args.positionals(["JOURNAL", "PAGE", "TEXT"], command: "add text")
        let store = try JournalAccess.open(pos[0], io: io)
        let fontFile = try TextOptions.fontFile(args, io: io)
        let id: String = try JournalAccess.editPage(pos[1], of: store, description: "add text", importing: fontFile.map { [$0] } ?? []) { page in
            var text = TextContent(text: pos[2].text)
            var patch = ElementPatch()
            try TextOptions.patch(args, dpi: page.dpi, fontFile: fontFile, into: &patch)
            if let o = try PlacementOptions.outline(args.arg("outline"), dpi: page.dpi) { patch.outline = .some(o) }
            var placement: Placement?
            if let slot = try PlacementOptions.slot(args, page: page, kind: .text) {
                placement = try Placement(center: slot.frame.rect.center, rotation: slot.frame.rotation)
                if patch.maxWidth == nil { patch.maxWidth = .some(slot.frame.rect.width) }
                if patch.align == nil { patch.align = .center }
            } else {
                placement = try PlacementOptions.placement(args, page: page, natural: nil)
            }
            let label = { (field: String) in field == "text" ? "TEXT" : optionLabel(field) }
            do throws(EditError) { try patch.apply(to: &text) } catch { throw optionRefusal(error, label: label) }
            let new = NewElement(id: args.arg("id")?.text, content: .text(text), placement: placement, opacity: try PlacementOptions.opacity(args))
            return try PlacementOptions.add(new, to: &page, store: store, label: label)
        }
        io.out("\(id)\n")
    }
}

/// Text options, shared by `add text` and `set`.
enum TextOptions {
    static let specs = [
        OptionSpec("font", value: "F", help: "an installed font family (see 'techo fonts'; default sans-serif)"),
        OptionSpec("font-file", value: "F.ttf", help: "a font file (TrueType, OpenType, collection) to copy into the journal and use"),
        OptionSpec("weight", value: "W", help: "100-900 or bold (default 400)"),
        OptionSpec("italic", help: "italic"),
        OptionSpec("size", value: "S", help: "font size, pixels or a length such as 18pt (default 48)"),
        OptionSpec("color", value: "C", help: "text colour (default black)"),
        OptionSpec("align", value: "A", help: "left (default), center or right"),
        OptionSpec("max-width", value: "W", help: "wrap lines at this width"),
        OptionSpec("line-height", value: "L", help: "line height as a multiple of the size (default 1.2)"),
        OptionSpec("letter-spacing", value: "P", help: "extra space between characters"),
        OptionSpec("outline", value: "COLOR,W", help: "an outline around the glyphs, under the fill"),
    ]

    /// The font file `--font-file` names, checked and ready to import with the change.
    static func fontFile(_ args: ParsedArguments, io: CommandIO) throws -> AssetImport? {
        guard let a = args.arg("font-file") else { return nil }
        let bytes = try InputFile.read(a, io: io, limit: FontFileProbe.maxBytes)
        do { return try FontRules.prepareFontFile(bytes, name: a.text) } catch { throw a.blame(error) }
    }

    /// The text fields the options set (not `--outline`, which `add` and `set` spell
    /// differently), into `p`.
    static func patch(_ args: ParsedArguments, dpi: Double, fontFile: AssetImport?, into p: inout ElementPatch) throws {
        if let a = args.arg("font") { p.font = a.text }
        if let f = fontFile { p.fontFile = f.ref }
        if let a = args.arg("weight") { p.weight = a.text == "bold" ? 700 : a.text == "normal" ? 400 : try a.integer(FieldRules.weight) }
        if args.has("italic") { p.italic = true }
        if let a = args.arg("size") { p.size = try a.length(dpi: dpi, FieldRules.fontSize) }
        if let a = args.arg("color") { p.color = try a.color() }
        if let a = args.arg("align") { p.align = TextContent.Align(rawValue: try a.choice(["left", "center", "right"]))! }
        if let a = args.arg("max-width") { p.maxWidth = .some(try a.length(dpi: dpi, FieldRules.maxWidth)) }
        if let a = args.arg("line-height") { p.lineHeight = try a.number(FieldRules.lineHeight) }
        if let a = args.arg("letter-spacing") { p.letterSpacing = try a.length(dpi: dpi, FieldRules.letterSpacing) }
    }
}

/// A refusal of a value the command line gave (a field of `ElementPatch` or `NewElement`): a
/// usage error naming the option (`--line-height` for `lineHeight`). An `--id` is refused for
/// what the page already holds, so it stays a data error (65), named as the option; any other
/// error is as it is.
func optionRefusal(_ error: EditError, label: (String) -> String = optionLabel) -> Error {
    guard error.kind == .invalid, let field = error.field else { return error }
    if field == "id" { return error.relabelled(label) }
    return UsageError(error.relabelled(label).message)
}

/// What an option of `add` or `set` is called for a field of `ElementPatch`: `--line-height` for
/// `lineHeight`.
func optionLabel(_ field: String) -> String {
    switch field {
    case "hidden": return "--hide/--show"
    case "locked": return "--lock/--unlock"
    case "type": return "add"
    default:
        var out = "--"
        for ch in field { if ch.isUppercase { out += "-" + ch.lowercased() } else { out.append(ch) } }
        return out
    }
}

enum AddWashiCommand: TechoCommand {
    static let names = ["add", "washi"]
    static let usage = "add washi JOURNAL PAGE --from X,Y --to X,Y [--width W] [--color C | --pattern FILE] [--ends torn|zigzag]"
    static let summary = "add a strip of washi tape; prints its id"
    static let options = [
        OptionSpec("id", value: "ID", help: "the element's id (default washi-<n>)"),
        OptionSpec("from", value: "X,Y", help: "one end of the strip's centre line"),
        OptionSpec("to", value: "X,Y", help: "the other end"),
        OptionSpec("width", value: "W", help: "width across the strip (default 15mm)"),
        OptionSpec("color", value: "C", help: "tape colour, usually translucent (default #e8a0a0cc)"),
        OptionSpec("pattern", value: "FILE", help: "an image (PNG, JPEG, WebP, SVG, ...) printed on the tape, repeating"),
        OptionSpec("ends", value: "torn|zigzag", help: "how the ends are cut (default torn)"),
        OptionSpec("opacity", value: "A", help: "opacity from 0 to 1 (default 1)"),
    ]

    static func run(_ args: ParsedArguments, io: CommandIO) throws {
        let pos = try args.positionals(["JOURNAL", "PAGE"], command: "add washi")
        try args.exclusive(["color", "pattern"], command: "add washi")
        guard let fromArg = args.arg("from"), let toArg = args.arg("to") else {
            throw UsageError("add washi: --from X,Y and --to X,Y are required")
        }
        let store = try JournalAccess.open(pos[0], io: io)
        let pattern = try args.arg("pattern").map { try JournalAccess.readImage($0, io: io, keepGPS: false).asset }
        let patternAsset = pattern?.ref
        let id: String = try JournalAccess.editPage(pos[1], of: store, description: "add washi", importing: pattern.map { [$0] } ?? []) { page in
            let from = try fromArg.point(dpi: page.dpi), to = try toArg.point(dpi: page.dpi)
            guard from != to else { throw UsageError("--to: the strip needs two different ends") }
            let mid = from.lerp(to, 0.5)
            let width = try args.arg("width")?.length(dpi: page.dpi, FieldRules.washiWidth) ?? Length(15, .mm).pixels(dpi: page.dpi)
            let fill: WashiContent.Fill = try patternAsset.map { .pattern($0) } ?? .color(args.arg("color")?.color() ?? WashiContent.defaultColor)
            let ends = WashiContent.Ends(rawValue: try args.arg("ends")?.choice(["torn", "zigzag"]) ?? "torn")!
            let washi = try WashiContent(from: from - mid, to: to - mid, width: width, fill: fill, ends: ends)
            let new = NewElement(
                id: args.arg("id")?.text, content: .washi(washi), placement: try Placement(center: mid), opacity: try PlacementOptions.opacity(args))
            return try PlacementOptions.add(new, to: &page, store: store)
        }
        io.out("\(id)\n")
    }
}
