// Builds the files of Resources/ into techo: before TechoResources compiles, techo-embed writes
// them as one generated Swift source (base64 string literals) in the plugin's work folder, so
// every `swift build` carries the files as they are now and nothing generated is committed.
// docs/decisions/install.md says why techo embeds them.
//
// SwiftPM asks a plugin for its commands only when it re-plans the build, and it re-plans when
// Package.swift or the file list under a target's folder changes. Resources/ is under no target,
// so the files are read through the link Sources/TechoResources/Resources (to ../../Resources,
// excluded from the target's sources): a file added, removed or renamed there re-plans the
// build and so re-lists the files; an edited file is an input of the command and re-runs it.
import Foundation
import PackagePlugin

@main
struct EmbedResources: BuildToolPlugin {
    /// The folders of Resources/ built into techo. This list is the one place that decides: a
    /// folder added here is embedded whole by the next build.
    static let folders = ["editor", "templates", "stickers"]

    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        // (Target.directoryURL needs tools version 6.1; the target lives in the usual place.)
        let resources = context.package.directoryURL.appending(path: "Sources/\(target.name)/Resources")
        guard FileManager.default.fileExists(atPath: resources.appending(path: ".").path) else {
            throw EmbedError(
                description: "\(resources.path) is missing: it must be a link to the package's Resources folder (ln -s ../../Resources), "
                    + "or files added to or removed from Resources/ are not noticed")
        }
        var paths: [String] = []
        for folder in EmbedResources.folders {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: resources.appending(path: folder).path, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw EmbedError(description: "Resources/\(folder), listed in EmbedResources.folders, is not a folder")
            }
            paths += try EmbedResources.files(in: resources.appending(path: folder), prefix: folder)
        }
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedFiles.swift")
        return [
            .buildCommand(
                displayName: "Embedding Resources/{\(EmbedResources.folders.joined(separator: ","))} in \(target.name)",
                executable: try context.tool(named: "techo-embed").url,
                arguments: [output.path, resources.path] + paths,
                inputFiles: paths.map { resources.appending(path: $0) },
                outputFiles: [output])
        ]
    }

    /// The regular files under `folder`, as paths relative to Resources/ (`editor/tools/select.js`),
    /// sorted. Hidden names and symbolic links are left out, as the editor's server leaves them
    /// out of a folder it serves from disk.
    static func files(in folder: URL, prefix: String) throws -> [String] {
        let fm = FileManager.default
        var out: [String] = []
        for name in try fm.contentsOfDirectory(atPath: folder.path).sorted() where !name.hasPrefix(".") {
            let url = folder.appending(path: name)
            let type = try fm.attributesOfItem(atPath: url.path)[.type] as? FileAttributeType
            if type == .typeDirectory {
                out += try files(in: url, prefix: prefix + "/" + name)
            } else if type == .typeRegular {
                out.append(prefix + "/" + name)
            }
        }
        return out
    }
}

/// Why the plugin could not plan the command.
struct EmbedError: Error, CustomStringConvertible {
    var description: String
}
