// Finding templates: a name is a built-in template in Resources/templates/, a path (with a
// slash or ending in .json) is a user's own file relative to the manifest or working folder.
import Foundation
import TechoCodecs
import TechoModel

public enum Templates {
    /// The folder of built-in templates: `$TECHO_RESOURCES/templates`, else the first
    /// `Resources/templates` found walking up from the executable (a build tree inside the
    /// repository), else `<prefix>/share/techo/templates` beside an installed binary.
    static let builtinFolder: URL? = {
        let fm = FileManager.default
        if let env = ProcessInfo.processInfo.environment["TECHO_RESOURCES"] {
            let u = URL(fileURLWithPath: env).appendingPathComponent("templates")
            if fm.fileExists(atPath: u.path) { return u }
        }
        var starts: [URL] = []
        if let exe = Bundle.main.executableURL?.resolvingSymlinksInPath() { starts.append(exe.deletingLastPathComponent()) }
        starts.append(URL(fileURLWithPath: #filePath).deletingLastPathComponent())
        for start in starts {
            var dir = start
            for _ in 0..<8 {
                let candidate = dir.appendingPathComponent("Resources/templates")
                if fm.fileExists(atPath: candidate.path) { return candidate }
                let share = dir.appendingPathComponent("share/techo/templates")
                if fm.fileExists(atPath: share.path) { return share }
                dir = dir.deletingLastPathComponent()
            }
        }
        return nil
    }()

    /// Names of the built-in templates.
    public static func builtinNames() -> [String] {
        guard let dir = builtinFolder, let files = try? FileManager.default.contentsOfDirectory(atPath: dir.path) else { return [] }
        return files.filter { $0.hasSuffix(".json") }.map { String($0.dropLast(5)) }.sorted()
    }

    /// The template's JSON and the folder its paths are relative to, or nil when there is none.
    public static func find(_ name: String, relativeTo base: URL) throws -> (json: JSONValue, folder: URL)? {
        let url: URL
        if name.contains("/") || name.hasSuffix(".json") {
            url = name.hasPrefix("/") ? URL(fileURLWithPath: name) : base.appendingPathComponent(name)
        } else {
            guard Identifier.isValid(name), let dir = builtinFolder else { return nil }
            url = dir.appendingPathComponent(name + ".json")
        }
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        let bytes = try InputFile.read(url.path, path: url.path, limit: JSONLimits.default.maxBytes)
        return (try JSONParser.parse(bytes, file: url.lastPathComponent), url.deletingLastPathComponent())
    }
}

extension Templates {
    /// The template `name` (a built-in name, or a template file relative to `base`) decoded, with
    /// the files its decorations use, to be imported with the page made from it. `what` is how
    /// errors name where the name came from (`--template`, `template`).
    public static func load(_ name: String, relativeTo base: URL, what: String = "template") throws(EditError) -> (template: Template, assets: [AssetImport]) {
        try EditError.wrapping {
            guard let found = try find(name, relativeTo: base) else {
                let names = builtinNames()
                throw EditError(
                    .notFound,
                    "\(what): no template '\(name)'; built-in templates: "
                        + (names.isEmpty ? "(none found)" : names.joined(separator: ", ")) + ", or a path to a template .json file")
            }
            let env = ManifestEnvironment(imageSizeOfBytes: { url, bytes in
                let info = try ImageProbe.check(bytes, name: url.path)
                return (Double(info.naturalWidth), Double(info.naturalHeight))
            })
            let file = name.contains("/") || name.hasSuffix(".json") ? name : "template \(name)"
            return try Template.decode(found.json, folder: found.folder, file: file, environment: env)
        }
    }
}
