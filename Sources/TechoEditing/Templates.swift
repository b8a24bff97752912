// Finding templates: a name is a built-in template (Resources/templates/, built into techo), a
// path (with a slash or ending in .json) is a user's own file relative to the manifest or working folder.
import Foundation
import TechoCodecs
import TechoModel
import TechoResources

public enum Templates {
    /// The folder of built-in templates on disk: `$TECHO_RESOURCES/templates` when that folder
    /// exists (for working on them), else nil: the copy built into techo is used.
    static let builtinFolder: URL? = BuiltinResources.overrideFolder("templates")

    /// The folder a built-in template's paths would be relative to. Built-in templates name no
    /// files (a test keeps it so), so this folder is never read; it only names where they live.
    static let embeddedFolder = URL(fileURLWithPath: "/built-in/templates", isDirectory: true)

    /// Names of the built-in templates.
    public static func builtinNames() -> [String] {
        guard let dir = builtinFolder else {
            return BuiltinResources.names(in: "templates").filter { !$0.contains("/") && $0.hasSuffix(".json") }.map { String($0.dropLast(5)) }.sorted()
        }
        guard let files = try? FileManager.default.contentsOfDirectory(atPath: dir.path) else { return [] }
        return files.filter { $0.hasSuffix(".json") }.map { String($0.dropLast(5)) }.sorted()
    }

    /// The template's JSON and the folder its paths are relative to, or nil when there is none.
    public static func find(_ name: String, relativeTo base: URL) throws -> (json: JSONValue, folder: URL)? {
        let url: URL
        if name.contains("/") || name.hasSuffix(".json") {
            url = name.hasPrefix("/") ? URL(fileURLWithPath: name) : base.appendingPathComponent(name)
        } else {
            guard Identifier.isValid(name) else { return nil }
            guard let dir = builtinFolder else {
                guard let bytes = BuiltinResources.file("templates/\(name).json") else { return nil }
                return (try JSONParser.parse(bytes, file: name + ".json"), embeddedFolder)
            }
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
