// The built-in templates come from the copy built into techo, and are self-contained: a
// built-in template has no folder on disk for a decoration's file to be relative to.
import Foundation
import TechoEditing
import TechoModel
import Testing

@Suite struct BuiltinTemplatesTests {
    @Test func builtInTemplatesAreFoundWithoutAFolderOnDisk() throws {
        let names = Templates.builtinNames()
        for name in ["weekly", "photo-grid", "travel-day"] { #expect(names.contains(name), "\(names)") }
        // A working folder that does not exist: a built-in name never looks there.
        let nowhere = URL(fileURLWithPath: "/nonexistent-\(UInt32.random(in: 0...UInt32.max))")
        for name in names {
            let found = try #require(try Templates.find(name, relativeTo: nowhere), "\(name)")
            #expect(found.json.kindName == "an object", "\(name)")
        }
        #expect(try Templates.find("nonesuch", relativeTo: nowhere) == nil)
        #expect(try Templates.find("../weekly", relativeTo: nowhere) == nil, "a path is the user's file, never a built-in")
    }

    @Test func builtInTemplatesNameNoFiles() throws {
        var measured: [String] = []
        let env = ManifestEnvironment(imageSizeOfBytes: { url, _ in
            measured.append(url.path)
            return (1, 1)
        })
        for name in Templates.builtinNames() {
            let found = try #require(try Templates.find(name, relativeTo: URL(fileURLWithPath: "/")))
            let decoded = try Template.decode(found.json, folder: found.folder, file: "template \(name)", environment: env)
            #expect(decoded.assets.isEmpty, "built-in template \(name) names files: \(decoded.assets)")
        }
        #expect(measured.isEmpty, "\(measured)")
    }
}
