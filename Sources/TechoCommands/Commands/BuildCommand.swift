// techo build: a whole journal from a manifest, validated completely before anything is
// written, then exported.
import Foundation
import TechoCodecs
import TechoEditing
import TechoExport
import TechoModel
import TechoRender
import TechoText

enum BuildCommand: TechoCommand {
    static let names = ["build"]
    static let usage = "build MANIFEST.json [-o OUTDIR] [--journal PATH.techo] [--scale S | --dpi D] [--format png|jpeg|pdf] [--no-export] [--force]"
    static let summary = "create or update a journal from a manifest, then export its pages"
    static let discussion = """
        The manifest is checked completely first and every problem is reported with its JSON path;
        nothing is written unless it is valid. Without --journal the journal is NAME.techo beside
        the manifest; without -o pages go to NAME-pages/ (NAME = the manifest's file name without
        .json). An existing journal is updated in one undoable step. GPS data is removed from
        imported JPEG and HEIC photos unless --keep-gps is given. Pages whose files are already what
        this build would write are not rendered again (--force renders them anyway).
        """
    static let options = [
        OptionSpec("output", short: "o", value: "OUTDIR", help: "where the pages go (default NAME-pages beside the manifest)"),
        OptionSpec("journal", value: "PATH.techo", help: "the journal to create or update (default NAME.techo beside the manifest)"),
        OptionSpec("scale", value: "S", help: "render scale (default 1)"),
        OptionSpec("dpi", value: "D", help: "render at this resolution instead"),
        OptionSpec("format", value: "F", help: "png (default), jpeg or pdf"),
        OptionSpec("quality", value: "Q", help: "JPEG quality 1-100 (default 92)"),
        OptionSpec("no-export", help: "only create or update the journal"),
        OptionSpec("force", help: "render every page, even one whose file is already what this build would write"),
        OptionSpec("keep-gps", help: "keep GPS location data in imported JPEG and HEIC photos"),
    ]

    static func run(_ args: ParsedArguments, io: CommandIO) throws {
        let manifestArg = try args.positionals(["MANIFEST"], command: "build")[0]
        let manifestURL = URL(fileURLWithPath: io.resolve(manifestArg.text)).standardizedFileURL
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: manifestURL.path, isDirectory: &isDir), !isDir.boolValue else {
            throw EditError(.notFound, "\(manifestArg.text): no such manifest file")
        }
        // A FIFO or device would block or never end in the manifest reader: refuse it here.
        try InputFile.checkRegular(manifestArg.text, path: manifestURL.path)
        let folder = manifestURL.deletingLastPathComponent()
        let name = manifestURL.deletingPathExtension().lastPathComponent
        let journalURL =
            args.value("journal").map { URL(fileURLWithPath: io.resolve($0.text)) }
            ?? folder.appendingPathComponent(name + ".techo")
        let existing =
            FileManager.default.fileExists(atPath: journalURL.path)
            ? try JournalAccess.open(Arg(token: ArgumentToken(index: 0, text: journalURL.path), name: "--journal"), io: io) : nil
        let keepGPS = args.has("keep-gps")
        let started = Int64(Date().timeIntervalSince1970 * 1e9)

        // Each source file is read once: hashed by the manifest reader, then probed (and its GPS
        // data removed) here from the same bytes, and written from them into `staging`, beside
        // the journal, from where the journal's write links it into the bundle. A file the
        // journal's source index vouches for (same size, mtime, inode and device as when it was
        // hashed) is not read at all.
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("techo-build-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        defer { try? FileManager.default.removeItem(at: scratch) }
        // Nil where no folder can be made beside the journal: the journal's write then copies
        // from the source files (hashing again one that changed since it was read).
        let staging = AssetStaging(beside: journalURL)
        defer { staging?.remove() }
        var cleaned: [String: (ref: AssetRef, file: URL)] = [:]
        let index = existing?.sourceIndex() ?? SourceIndex()
        // Each picture's header is read as the manifest is; its whole stream is checked by
        // `probes` on the other cores meanwhile (and while the pages are drawn), or, for a JPEG,
        // PNG, HEIF or AVIF the pages will draw, by the render's decode of it. The journal is
        // written only once every check passed. Should one fail, the manifest is read again
        // checking each picture in turn, which reports the failure with its JSON path as before.
        let batch = ProbeBatch()
        // No check may still be running inside a C library when this returns or throws.
        defer {
            batch.renderEnded()
            _ = batch.wait()
        }
        var probes: ProbeBatch? = batch
        let rendersPixels = staging != nil && !args.has("no-export") && drawsPixels(args)
        // Pictures whose check waits for the render's decode, by source path, until hashed.
        var leftToRender: Set<String> = []
        let env = ManifestEnvironment(
            imageSizeOfBytes: { url, bytes in
                let info = try probes == nil ? ImageProbe.check(bytes, name: url.path) : ImageDecoder.info(of: bytes, name: url.path)
                let gps = !keepGPS && ImageMetadata.containsGPS(bytes, format: info.format)
                // A picture the render decodes whole (JPEG, PNG, HEIF, AVIF; the renderer says
                // when a decode stands for the check): its decode is its check.
                let renderChecks = probes != nil && rendersPixels && [.jpeg, .png, .heif, .avif].contains(info.format)
                if !gps {
                    if renderChecks { leftToRender.insert(url.path) } else { probes?.check(bytes, name: url.path) }
                } else {
                    let clean = try ImageMetadata.removingGPS(bytes, format: info.format, file: url.path)
                    let staged = try stageClean(clean, ext: info.format.fileExtension, staging: staging, scratch: scratch)
                    cleaned[url.path] = staged
                    // The render decodes the cleaned copy; that stands for the original's check
                    // when the two differ only in metadata no decoder reads (its check, should
                    // the render not decode it, is then the cleaned copy's too).
                    if renderChecks && ImageMetadata.changesOnlyMetadata(bytes, clean, format: info.format) {
                        batch.deferCheck(staged.ref, file: staged.file, name: url.path)
                    } else {
                        probes?.check(bytes, name: url.path)
                    }
                }
                return (Double(info.naturalWidth), Double(info.naturalHeight))
            },
            template: { try Templates.find($0, relativeTo: folder) },
            knownSource: { path, fingerprint in
                guard let store = existing, let r = index.lookup(path, fingerprint), r.keptGPS == keepGPS, store.hasAsset(r.asset) else { return nil }
                return r
            })
        var environment = env
        environment.fontFileExtension = { url, bytes in try FontFileProbe.check(bytes, name: url.path) }
        environment.hashed = { url, ref, bytes in
            guard probes != nil, let staging else { return }
            let deferred = leftToRender.remove(url.path) != nil
            guard cleaned[url.path] == nil else { return }
            let file = try staging.stage(bytes, as: ref)
            if deferred { batch.deferCheck(ref, file: file, name: url.path) }
        }
        environment.sticker = { name in
            let p = try StickerPacks.prepare(try StickerRef(parsing: name, what: "sticker"))
            return (p.asset, p.naturalWidth, p.naturalHeight)
        }
        /// Waits for the pictures' checks; when one failed, throws what reading the manifest
        /// again, each picture checked in turn, reports.
        func checked() throws {
            batch.renderEnded()
            guard probes != nil, !batch.wait() else { return }
            probes = nil
            cleaned = [:]
            _ = try Manifest.decode(fileAt: manifestURL, environment: environment)
            throw EditError(.invalid, "\(manifestArg.text): a picture failed its check and then passed it (did a file change while being read?)")
        }
        var build: ManifestBuild
        do { build = try Manifest.decode(fileAt: manifestURL, environment: environment) } catch {
            // The report lists every problem: a picture's failed check too.
            try checked()
            throw error
        }
        // A picture measured from bytes read again (its record vouched for the file, not its
        // size) was not staged: it is checked as before.
        for path in leftToRender { batch.check(file: URL(fileURLWithPath: path), name: path) }
        // The journal's pages before this build: a page file still as techo wrote it for its
        // page's old version is patched, not rendered whole (Exporter's `earlier`).
        var oldPages: [String: Page]?
        do {
            oldPages = try existing?.read().pages
            for (i, page) in build.pages.enumerated() {
                try page.checkElementCount(file: "\(manifestArg.text): pages[\(i)].elements", limits: env.limits)
                do { try PageEdits.check(page, was: oldPages?[page.id]) } catch {
                    throw EditError(error.kind, "\(manifestArg.text): pages[\(i)] (\(page.id)): \(error.message)")
                }
            }
        } catch {
            // A picture's failed check is what reading the manifest reports first, as before.
            try checked()
            throw error
        }

        // Photos lose their GPS data on the way in: swap each such JPEG or HEIF for a cleaned copy.
        if !keepGPS { stripGPS(&build, cleaned: cleaned) }
        var sources = index
        for (path, record) in build.sources {
            var r = record
            r.asset = cleaned[path]?.ref ?? r.asset
            r.keptGPS = keepGPS
            sources.record(path, r, hashedAt: started)
        }
        // Assets already in the journal are neither copied nor read again; the others are
        // linked in from their staged copies.
        var imports = build.imports.filter { !build.known.contains($0.ref) && existing?.hasAsset($0.ref) != true }
        if let staging {
            imports = try imports.map { i in
                if case .bytes(let bytes) = i.source { return AssetImport(ref: i.ref, source: .staged(try staging.stage(bytes, as: i.ref))) }
                return staging.file(i.ref).map { AssetImport(ref: i.ref, source: .staged($0)) } ?? i
            }
        }

        /// Writes the journal: a new one, or the existing one changed in one step.
        func write() throws -> JournalStore {
            if let existing {
                try existing.transaction(description: "build \(manifestURL.lastPathComponent)", importing: imports) { journal, pages in
                    journal.title = build.journal.title
                    journal.pageOrder = build.journal.pageOrder
                    pages = Dictionary(uniqueKeysWithValues: build.pages.map { ($0.id, $0) })
                }
                return existing
            }
            do {
                return try JournalStore.create(at: journalURL, journal: build.journal, pages: build.pages, assets: imports)
            } catch let e as StorageError {
                throw EditError(.cannotCreate, "\(journalURL.path): \(e.message)")
            }
        }
        if args.has("no-export") {
            try checked()
            // The index is a cache: failing to save it costs the next build a re-read, nothing more.
            try? write().saveSourceIndex(sources)
            io.out("\(journalURL.path)\n")
            if ExportSettings.fromEnvironment().timings { io.err(passes()) }
            return
        }
        // The pages are drawn from the staged copies (without a staging folder, from the files
        // the manifest named) while the journal is written on another thread (its syncs, links
        // and renames are the disk's time, not the cores'): the pictures are the same bytes
        // either way (without staging, a file that changed since it was hashed fails the
        // journal's write). The page files are put in place only once the journal is written;
        // if writing it fails, no page file is written and that error is reported.
        let renderFrom = try pictureFiles(imports, scratch: scratch)
        let renderer = PageRenderer(
            assetURL: { ref in
                if let url = renderFrom[ref] { return url }
                guard let existing else { throw EditError(.notFound, "asset \(ref.path) is in neither the manifest nor the journal") }
                return try existing.assetURL(ref)
            },
            decoded: { ref, _ in
                // A decode that stands for the check (every scanline, row or tile, through the
                // probe's own decoder sessions): the check is done.
                batch.decoded(ref)
            })
        let sourcesToSave = sources
        let writing = OnAnotherThread { () throws -> JournalStore? in
            guard batch.wait() else { return nil }
            let store = try write()
            try? store.saveSourceIndex(sourcesToSave)
            return store
        }
        let chosen = build.pages.enumerated().map { (position: $0.offset + 1, page: $0.element) }
        let exported = Result {
            try ExportCommand.export(
                chosen, total: chosen.count, title: build.journal.title, args: args,
                defaultFolder: folder.appendingPathComponent(name + "-pages"),
                renderer: renderer, io: io, earlier: { id in oldPages?[id].map { [$0] } ?? [] },
                beforeCommit: {
                    // Every page is drawn: a picture not decoded whole is checked now.
                    batch.renderEnded()
                    // Nothing is put in place unless the journal was written.
                    guard try writing.result().get() != nil else { throw EditError(.invalid, "a picture failed its check") }
                })
        }
        batch.renderEnded()
        // A picture's failed check comes first, then the journal's write, then the pages'.
        guard try writing.result().get() != nil else {
            try checked()
            return
        }
        for f in try exported.get() { io.out("\(f.path)\n") }
        if ExportSettings.fromEnvironment().timings { io.err(passes()) }
    }

    /// The `TECHO_TIMINGS` line of how often pictures of each format were checked and decoded
    /// whole by this process: `techo: timings: picture passes: jpeg check 0 decode 1, …`.
    static func passes() -> String {
        let counts = ImageFormat.allCases.compactMap { f -> String? in
            let (c, d) = (DecodeClock.count(of: .check, f), DecodeClock.count(of: .decode, f))
            return c + d == 0 ? nil : "\(f.rawValue) check \(c) decode \(d)"
        }
        return "techo: timings: picture passes: \(counts.isEmpty ? "none" : counts.joined(separator: ", "))\n"
    }

    /// Where the renderer reads each picture being imported before the journal holds it: its
    /// staged copy, its source file, or for bytes in memory (a pack's sticker) a copy in
    /// `scratch`.
    static func pictureFiles(_ imports: [AssetImport], scratch: URL) throws -> [AssetRef: URL] {
        var files: [AssetRef: URL] = [:]
        for i in imports {
            switch i.source {
            case .file(let url, _), .staged(let url): files[i.ref] = url
            case .bytes(let bytes):
                try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
                let file = scratch.appendingPathComponent("import-" + i.ref.sha256 + "." + i.ref.ext)
                try Data(bytes).write(to: file)
                files[i.ref] = file
            }
        }
        return files
    }

    /// Writes GPS-free JPEG, HEIF or AVIF bytes to the staging folder (else the scratch
    /// folder), named by their hash.
    static func stageClean(_ clean: [UInt8], ext: String, staging: AssetStaging?, scratch: URL) throws -> (ref: AssetRef, file: URL) {
        let ref = try AssetRef(sha256: SHA256.hex(clean), ext: ext)
        if let staging { return (ref, try staging.stage(clean, as: ref)) }
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        let file = scratch.appendingPathComponent(ref.sha256 + "." + ref.ext)
        try Data(clean).write(to: file)
        return (ref, file)
    }

    /// Replaces each JPEG, HEIF or AVIF asset that carried GPS data by its cleaned copy, in every page. Every
    /// picture was cleaned while it was probed (`cleaned`, by source path, from the bytes read
    /// once); assets the source index vouched for were cleaned when they were first imported.
    static func stripGPS(_ build: inout ManifestBuild, cleaned: [String: (ref: AssetRef, file: URL)]) {
        var map: [AssetRef: AssetRef] = [:]
        var assets: [AssetRef: URL] = [:]
        for (ref, url) in build.assets {
            if let c = cleaned[url.path] {
                map[ref] = c.ref
                assets[c.ref] = c.file
            } else {
                assets[ref] = url
            }
        }
        guard !map.isEmpty else { return }
        for (old, new) in map {
            build.fingerprints[old] = nil
            build.fingerprints[new] = assets[new].flatMap { SourceFingerprint.of($0.path) }
        }
        build.assets = assets
        build.pages = build.pages.map { $0.replacingAssets(map) }
    }
}

extension BuildCommand {
    /// Whether the build's export draws its pages into pixels (PNG or JPEG, as `--format` or
    /// `-o`'s extension says): then the render decodes every picture it draws. A PDF may carry a
    /// JPEG as its own bytes, never decoded.
    static func drawsPixels(_ args: ParsedArguments) -> Bool {
        if let f = args.value("format") { return f.text.lowercased() != "pdf" }
        return args.value("output").flatMap { ExportFormat.implied(by: $0.text) } != .pdf
    }
}

extension Page {
    /// The page with asset references swapped by `map`.
    func replacingAssets(_ map: [AssetRef: AssetRef]) -> Page {
        var p = self
        func swap(_ r: AssetRef) -> AssetRef { map[r] ?? r }
        if var img = p.background.image {
            img.asset = swap(img.asset)
            p.background.image = img
        }
        for i in p.elements.indices {
            switch p.elements[i].content {
            case .image(var c): c.asset = swap(c.asset); p.elements[i].content = .image(c)
            case .photo(var c): c.image.asset = swap(c.image.asset); p.elements[i].content = .photo(c)
            case .washi(var w):
                if case .pattern(let r) = w.fill { w.fill = .pattern(swap(r)) }
                p.elements[i].content = .washi(w)
            case .text, .ink: break
            }
        }
        return p
    }
}
