// Manifest decoding (docs/contract.md §8, §8a): a whole journal described in one JSON file, with
// defaults, templates and transform sugar, decoded and validated completely before anything is
// written. See docs/manifest.md.

import Foundation

/// What manifest decoding asks of its caller.
public struct ManifestEnvironment {
    /// The natural size (after EXIF orientation) of an image file, given its bytes (read once).
    /// The model does not decode images; the codecs layer supplies this, and refuses a file
    /// that is not a usable image.
    public var imageSize: (URL, [UInt8]) throws -> (width: Double, height: Double)
    /// What the journal's source index knows of a file (real path) with this fingerprint, if
    /// it vouches for it: the file is then neither read nor hashed. Default nil: every file is read.
    public var knownSource: ((String, SourceFingerprint) -> SourceRecord?)?
    /// Finds a template by name: its JSON value and the folder its paths are relative to, or nil
    /// when there is no such template. Default: none.
    public var template: (String) throws -> (json: JSONValue, folder: URL)?
    /// Checks a font file a text names (`fontFile`) from its bytes and gives its file extension
    /// (`ttf`, `otf`, `ttc`); the text engine supplies it. Default nil: a manifest may name no
    /// font file.
    public var fontFileExtension: ((URL, [UInt8]) throws -> String)?
    /// Finds a sticker by its `PACK/NAME` (an image's `"sticker"`): its bytes ready to import
    /// and its natural size. Default nil: a manifest may name no sticker.
    public var sticker: ((String) throws -> (asset: AssetImport, width: Double, height: Double))?
    /// Called with the bytes of each image or font file the manifest reader read and hashed,
    /// once they were measured (an image) or checked (a font), with the asset they are: a build
    /// stages them beside the journal (`AssetStaging`), so the file is not read again. What it
    /// throws is reported at the file's JSON path. Default nil.
    public var hashed: ((URL, AssetRef, [UInt8]) throws -> Void)?
    /// Limits. Default `.default`.
    public var limits: ModelLimits
    /// Largest source file a manifest may name, bytes. Default 256 MiB.
    public var maxFileBytes: Int

    public init(
        imageSize: @escaping (URL) throws -> (width: Double, height: Double),
        template: @escaping (String) throws -> (json: JSONValue, folder: URL)? = { _ in nil },
        limits: ModelLimits = .default, maxFileBytes: Int = 256 << 20
    ) {
        self.imageSize = { url, _ in try imageSize(url) }
        self.template = template; self.limits = limits; self.maxFileBytes = maxFileBytes
    }

    /// An environment that measures images from their bytes, read once by the manifest reader.
    public init(
        imageSizeOfBytes: @escaping (URL, [UInt8]) throws -> (width: Double, height: Double),
        template: @escaping (String) throws -> (json: JSONValue, folder: URL)? = { _ in nil },
        knownSource: ((String, SourceFingerprint) -> SourceRecord?)? = nil,
        limits: ModelLimits = .default, maxFileBytes: Int = 256 << 20
    ) {
        self.imageSize = imageSizeOfBytes
        self.template = template; self.knownSource = knownSource; self.limits = limits; self.maxFileBytes = maxFileBytes
    }
}

/// A decoded manifest: the journal to write and the files to import.
public struct ManifestBuild {
    /// The journal record.
    public var journal: Journal
    /// Its pages, in order.
    public var pages: [Page]
    /// Every asset the pages use, with the file to copy it from.
    public var assets: [AssetRef: URL]
    /// The fingerprint of each asset's file when it was hashed. Default empty.
    public var fingerprints: [AssetRef: SourceFingerprint] = [:]
    /// What was learnt about each source file, by real path (for the journal's source index).
    public var sources: [String: SourceRecord] = [:]
    /// Assets the source index vouched for: in the journal already, their files not read.
    public var known: Set<AssetRef> = []
    /// Stickers from packs the pages use, with their bytes. Default empty.
    public var stickers: [AssetImport] = []

    public init(journal: Journal, pages: [Page], assets: [AssetRef: URL]) {
        self.journal = journal; self.pages = pages; self.assets = assets
    }

    /// The assets to import, each from its file, trusted by fingerprint (not hashed again).
    public var imports: [AssetImport] {
        assets.map { AssetImport(ref: $0.key, source: .file($0.value, fingerprints[$0.key])) } + stickers.filter { assets[$0.ref] == nil }
    }
}

/// A template (docs/contract.md §8a): a page recipe with named slots.
public struct Template {
    /// Size, or nil to keep the page's. Default nil.
    public var size: PageSize?
    /// Resolution, or nil to keep the page's. Default nil.
    public var dpi: Double?
    /// Background, or nil to keep the page's. Default nil.
    public var background: Background?
    /// Decorations, below the page's own elements.
    public var elements: [Element]
    /// Named slots.
    public var slots: [Slot]
}

/// Decodes manifests.
public enum Manifest {
    /// Reads and decodes the manifest at `url`. Paths inside it are relative to its folder.
    /// - Throws: `JSONSyntaxError`, or `JSONDecodingError` with every problem and its JSON path.
    public static func decode(fileAt url: URL, environment: ManifestEnvironment) throws -> ManifestBuild {
        let name = url.lastPathComponent
        let attrs = try? FileManager.default.attributesOfItem(atPath: url.path)
        if let n = attrs?[.size] as? NSNumber, n.intValue > environment.limits.json.maxBytes {
            throw JSONSyntaxError(
                file: name, line: 1, column: 1, message: "JSON is \(n.intValue) bytes, over the limit of \(environment.limits.json.maxBytes) bytes")
        }
        let data: Data
        do { data = try Data(contentsOf: url) } catch {
            throw PathError(path: url.path, message: "cannot read: \(error.localizedDescription)")
        }
        let value = try JSONParser.parse([UInt8](data), file: name, limits: environment.limits.json)
        return try decode(value, folder: url.deletingLastPathComponent(), file: name, environment: environment)
    }

    /// Decodes a parsed manifest whose paths are relative to `folder`.
    public static func decode(_ value: JSONValue, folder: URL, file: String? = nil, environment: ManifestEnvironment) throws -> ManifestBuild {
        let ctx = DecodingContext(file: file, limits: environment.limits)
        let sources = ManifestSources(base: folder, table: AssetTable(), environment: environment)
        let root = ctx.root(value)
        guard let o = root.object() else { try ctx.throwIfProblems(); throw JSONDecodingError(file: file, problems: []) }
        if let vn = o.optional("techo"), let v = vn.integer(in: 1...Int(Int32.max)), v > Journal.currentFormatVersion {
            throw FormatVersionError(file: file ?? "manifest", found: v)
        }
        let title = o.optional("title")?.string() ?? ""
        let settings = o.optional("settings").map(JournalSettings.decode) ?? .default
        // Page defaults.
        var defaults = PageDefaults()
        if let dn = o.optional("page") { defaults = PageDefaults.decode(dn, inherited: defaults, sources: sources) }
        var pages: [Page] = []
        if let items = o.required("pages")?.array() {
            if items.isEmpty { o.optional("pages")?.report("a manifest needs at least one page") }
            var templates: [String: Template?] = [:]
            for (i, item) in items.enumerated() {
                let used = pages.map(\.id)
                if let page = decodePage(
                    item, index: i, used: used, defaults: defaults, sources: sources,
                    environment: environment, templates: &templates)
                {
                    if used.contains(page.id) { item.context.report(item.path("id"), "duplicate page id \"\(page.id)\"") } else { pages.append(page) }
                }
            }
        }
        o.finish()
        try ctx.throwIfProblems()
        let journal = try Journal(title: title, pageOrder: pages.map(\.id), settings: settings)
        var build = ManifestBuild(journal: journal, pages: pages, assets: sources.table.files)
        build.fingerprints = sources.table.fingerprints
        build.sources = sources.table.records
        build.known = sources.table.known
        build.stickers = sources.table.stickers.values.map(\.asset)
        return build
    }

    struct PageDefaults {
        var size: String = PageSize.defaultName
        var landscape = false
        var dpi: Double = Page.defaultDPI
        var background: JSONNode?
        var backgroundSources: ManifestSources?
        var margin: Double?

        static func decode(_ node: JSONNode, inherited: PageDefaults, sources: ManifestSources) -> PageDefaults {
            var d = inherited
            guard let o = node.object() else { return d }
            defer { o.finish() }
            if let s = o.optional("size")?.string() { d.size = s }
            if let l = o.optional("landscape")?.bool() { d.landscape = l }
            if let v = o.optional("dpi")?.number(FieldRules.dpi) { d.dpi = v }
            if let b = o.optional("background") {
                // Validated here once; each page decodes it again at its own dpi.
                _ = Background.decode(b, dpi: d.dpi, sources: sources)
                d.background = b; d.backgroundSources = sources
            }
            if let m = o.optional("margin") { d.margin = m.length(dpi: d.dpi, FieldRules.margin) }
            return d
        }
    }

    static func decodePage(
        _ node: JSONNode, index: Int, used: [String], defaults: PageDefaults, sources: ManifestSources,
        environment: ManifestEnvironment, templates: inout [String: Template?]
    ) -> Page? {
        guard let o = node.object() else { return nil }
        defer { o.finish() }
        let ctx = node.context
        let before = ctx.problems.count
        let id = o.optional("id").flatMap { $0.identifier() } ?? "p\(index + 1)"
        var template: Template?
        if let tn = o.optional("template"), let name = tn.string() {
            if let cached = templates[name] {
                template = cached
            } else {
                template = loadTemplate(name, at: tn, sources: sources, environment: environment, defaults: defaults)
                templates[name] = template
            }
        }
        let dpi = o.optional("dpi")?.number(FieldRules.dpi) ?? template?.dpi ?? defaults.dpi
        var size: PageSize?
        let landscape = o.optional("landscape")?.bool() ?? defaults.landscape
        if let sn = o.optional("size"), let s = sn.string() {
            do { size = try PageSize(parsing: s, dpi: dpi, landscape: landscape, limits: ctx.limits) } catch { sn.report("\(error)") }
        } else if let t = template?.size {
            size = t
        } else {
            do { size = try PageSize(parsing: defaults.size, dpi: dpi, landscape: landscape, limits: ctx.limits) } catch {
                ctx.report("page.size", "\(error)")
            }
        }
        var background = Background()
        if let bn = o.optional("background") {
            background = Background.decode(bn, dpi: dpi, sources: sources) ?? background
        } else if let t = template?.background {
            background = t
        } else if let bn = defaults.background, let bs = defaults.backgroundSources {
            // Decoded per page so unit strings use this page's dpi; its problems were reported
            // when the defaults were read.
            let quiet = DecodingContext(limits: ctx.limits)
            let probe = JSONNode(value: bn.value, path: bn.path, context: quiet)
            background = Background.decode(probe, dpi: dpi, sources: bs) ?? background
        }
        let margin = o.optional("margin")?.length(dpi: dpi, FieldRules.margin) ?? defaults.margin ?? 0
        var elements = template?.elements ?? []
        let center = Point((size?.width ?? 0) / 2, (size?.height ?? 0) / 2)
        if let items = o.optional("elements")?.array() {
            let env = ElementEnvironment(dpi: dpi, pageCenter: center, sources: sources, slots: template?.slots ?? [])
            for item in items {
                guard let e = Element.decode(item, env: env, existing: elements.map(\.id)) else { continue }
                if elements.contains(where: { $0.id == e.id }) {
                    ctx.report(item.path("id"), "duplicate element id \"\(e.id)\"")
                } else {
                    elements.append(e)
                }
            }
        }
        guard let size, ctx.problems.count == before else { return nil }
        do {
            return try Page(
                id: id, size: size, dpi: dpi, background: background, margin: margin,
                slots: template?.slots ?? [], elements: elements, limits: ctx.limits)
        } catch {
            node.report("\(error)")
            return nil
        }
    }

    static func loadTemplate(
        _ name: String, at node: JSONNode, sources: ManifestSources, environment: ManifestEnvironment,
        defaults: PageDefaults
    ) -> Template? {
        let found: (json: JSONValue, folder: URL)?
        do { found = try environment.template(name) } catch { node.report("template \"\(name)\": \(error)"); return nil }
        guard let found else { node.report("no template named \"\(name)\""); return nil }
        let ctx = node.context
        let before = ctx.problems.count
        let tnode = JSONNode(value: found.json, path: "templates.\(name)", context: ctx)
        let t = Template.decode(tnode, sources: sources.rebased(to: found.folder), defaults: defaults)
        return ctx.problems.count == before ? t : nil
    }
}

extension Template {
    /// Decodes a template file's JSON: `size`, `dpi`, `landscape`, `background`, `elements`
    /// (decorations, manifest syntax) and `slots` (`name`, `kind`, `rect`, `rotate`).
    static func decode(_ node: JSONNode, sources: ManifestSources, defaults: Manifest.PageDefaults) -> Template? {
        guard let o = node.object() else { return nil }
        defer { o.finish() }
        o.accept("name", "description")
        let dpi = o.optional("dpi")?.number(FieldRules.dpi)
        let landscape = o.optional("landscape")?.bool() ?? false
        var size: PageSize?
        if let sn = o.optional("size"), let s = sn.string() {
            do { size = try PageSize(parsing: s, dpi: dpi ?? defaults.dpi, landscape: landscape, limits: node.context.limits) } catch { sn.report("\(error)") }
        }
        let pdpi = dpi ?? defaults.dpi
        let background = o.optional("background").flatMap { Background.decode($0, dpi: pdpi, sources: sources) }
        let center = Point((size?.width ?? 0) / 2, (size?.height ?? 0) / 2)
        var elements: [Element] = []
        if let items = o.optional("elements")?.array() {
            let env = ElementEnvironment(dpi: pdpi, pageCenter: center, sources: sources)
            for item in items {
                guard let e = Element.decode(item, env: env, existing: elements.map(\.id)) else { continue }
                if elements.contains(where: { $0.id == e.id }) {
                    item.context.report(item.path("id"), "duplicate element id \"\(e.id)\"")
                } else {
                    elements.append(e)
                }
            }
        }
        var slots: [Slot] = []
        for item in o.optional("slots")?.array() ?? [] {
            guard let s = Slot.decode(item, dpi: pdpi) else { continue }
            if slots.contains(where: { $0.name == s.name }) { item.report("duplicate slot \"\(s.name)\"") } else { slots.append(s) }
        }
        return Template(size: size, dpi: dpi, background: background, elements: elements, slots: slots)
    }

    /// Decodes a template file on its own (for `page add --template`); paths are relative to
    /// `folder`. Returns the template and the files its decorations use.
    public static func decode(_ value: JSONValue, folder: URL, file: String? = nil, environment: ManifestEnvironment)
        throws -> (template: Template, assets: [AssetImport])
    {
        let ctx = DecodingContext(file: file, limits: environment.limits)
        let sources = ManifestSources(base: folder, table: AssetTable(), environment: environment)
        let t = decode(ctx.root(value), sources: sources, defaults: Manifest.PageDefaults())
        try ctx.throwIfProblems()
        guard let t else { throw JSONDecodingError(file: file, problems: []) }
        return (t, sources.table.files.map { AssetImport(ref: $0.key, source: .file($0.value, sources.table.fingerprints[$0.key])) })
    }
}
