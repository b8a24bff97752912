// Finding templates: a name is a built-in template (Resources/templates/, built into techo), a
// path (with a slash or ending in .json) is a user's own file relative to the manifest or working folder.
import Foundation
import TechoModel
import TechoResources

enum Templates {
    /// The folder of built-in templates on disk: `$TECHO_RESOURCES/templates` when that folder
    /// exists (for working on them), else nil: the copy built into techo is used.
    static let builtinFolder: URL? = BuiltinResources.overrideFolder("templates")

    /// The folder a built-in template's paths would be relative to. Built-in templates name no
    /// files (a test keeps it so), so this folder is never read; it only names where they live.
    static let embeddedFolder = URL(fileURLWithPath: "/built-in/templates", isDirectory: true)

    /// Names of the built-in templates.
    static func builtinNames() -> [String] {
        guard let dir = builtinFolder else {
            return BuiltinResources.names(in: "templates").filter { !$0.contains("/") && $0.hasSuffix(".json") }.map { String($0.dropLast(5)) }.sorted()
        }
        guard let files = try? FileManager.default.contentsOfDirectory(atPath: dir.path) else { return [] }
        return files.filter { $0.hasSuffix(".json") }.map { String($0.dropLast(5)) }.sorted()
    }

    /// The template's JSON and the folder its paths are relative to, or nil when there is none.
    static func find(_ name: String, relativeTo base: URL) throws -> (json: JSONValue, folder: URL)? {
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
        let arg = Arg(token: ArgumentToken(index: 0, text: url.path), name: "template")
        let bytes = try InputFile.read(arg, io: CommandIO(out: { _ in }, err: { _ in }), limit: JSONLimits.default.maxBytes)
        return (try JSONParser.parse(bytes, file: url.lastPathComponent), url.deletingLastPathComponent())
    }
}
