// The files built into techo are exactly the files of Resources/ in this checkout: every
// embedded folder, byte for byte, and nothing else.
import Foundation
import Testing

@testable import TechoResources

@Suite struct BuiltinResourcesTests {
    /// Resources/ of the checkout these tests were built from.
    static let resources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Resources")

    /// The regular, not hidden files under Resources/`folder`, relative to it, sorted.
    static func filesOnDisk(_ folder: String) -> [String] {
        let root = resources.appendingPathComponent(folder)
        guard let e = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey], options: [.skipsHiddenFiles]) else { return [] }
        var out: [String] = []
        for case let url as URL in e where (try? url.resourceValues(forKeys: [.isRegularFileKey]))?.isRegularFile == true {
            out.append(String(url.standardizedFileURL.path.dropFirst(root.standardizedFileURL.path.count + 1)))
        }
        return out.sorted()
    }

    @Test(arguments: ["editor", "templates"])
    func everyFileOfTheFolderIsBuiltInByteForByte(folder: String) throws {
        let onDisk = BuiltinResourcesTests.filesOnDisk(folder)
        #expect(!onDisk.isEmpty)
        #expect(BuiltinResources.names(in: folder) == onDisk)
        for name in onDisk {
            let expected = [UInt8](try Data(contentsOf: BuiltinResourcesTests.resources.appendingPathComponent(folder + "/" + name)))
            #expect(BuiltinResources.file(folder + "/" + name) == expected, "\(folder)/\(name)")
        }
    }

    @Test func namesAreSortedAndRelativeToTheirFolder() {
        let editor = BuiltinResources.names(in: "editor")
        #expect(editor.contains("index.html") && editor.contains("tools/select.js"))
        #expect(editor == editor.sorted())
        #expect(BuiltinResources.names(in: "editor/") == editor)
        #expect(BuiltinResources.names(in: "templates").contains("weekly.json"))
        #expect(BuiltinResources.names(in: "").count == BuiltinResources.embedded.count)
    }

    @Test func unknownPathsAndFoldersAreNil() {
        #expect(BuiltinResources.file("editor/no-such.js") == nil)
        #expect(BuiltinResources.file("editor") == nil)
        #expect(BuiltinResources.file("/editor/index.html") == nil)
        #expect(BuiltinResources.file("editor/../editor/index.html") == nil)
        #expect(BuiltinResources.names(in: "demo").isEmpty)
        #expect(BuiltinResources.names(in: "edit").isEmpty)
    }

    @Test func theOverrideFolderIsUsedOnlyWhenItExists() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("techo-resources-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("editor"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        try Data("x".utf8).write(to: root.appendingPathComponent("templates"))  // a file, not a folder
        let env = ["TECHO_RESOURCES": root.path]
        #expect(BuiltinResources.overrideFolder("editor", environment: env)?.standardizedFileURL == root.appendingPathComponent("editor").standardizedFileURL)
        #expect(BuiltinResources.overrideFolder("templates", environment: env) == nil)
        #expect(BuiltinResources.overrideFolder("stickers", environment: env) == nil)
        #expect(BuiltinResources.overrideFolder("editor", environment: [:]) == nil)
        #expect(BuiltinResources.overrideFolder("editor", environment: ["TECHO_RESOURCES": ""]) == nil)
    }
}
