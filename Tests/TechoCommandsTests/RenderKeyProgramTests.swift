// The program a render key names (docs/decisions/rebuild.md): the build-ids of the executable and
// of the libraries a page is drawn with, followed through what each is linked with, the same
// whatever else the process has opened.
import CTechoLazy
import Foundation
import Testing

@testable import TechoExport

@Suite struct RenderKeyProgramTests {
    /// The lines of `libraries`' program (opening them), keyed by soname.
    static func lines(_ libraries: [techo_lazy_library]) -> [String: String] {
        _ = RenderKey.program(libraries)
        let sonames = libraries.compactMap { techo_lazy_soname($0).map { String(cString: $0) } }
        var out: [String: String] = [:]
        for line in LoadedObjects.buildIDs(closureOf: sonames) {
            let parts = line.split(separator: " ")
            out[String(parts[0])] = parts.count > 1 ? String(parts[1]) : ""
        }
        return out
    }

    /// The list follows DT_NEEDED: librsvg's brings in pango and libxml2, which techo never opens
    /// itself; and the executable's own libraries (libc, Swift's runtime) are always there.
    @Test func theProgramOfAnSVGPageNamesWhatLibrsvgIsLinkedWith() {
        let svg = Self.lines(RenderKey.libraries(formats: [.svg], text: false, output: .png))
        let expected = [
            "program", "libc.so.6", "libswiftCore.so", "librsvg-2.so.2", "libcairo.so.2", "libglib-2.0.so.0", "libpango-1.0.so.0", "libxml2.so.2",
            "libdeflate.so.0",
        ]
        for name in expected {
            #expect(svg[name] != nil, "\(name) is not in the SVG page's program: \(svg.keys.sorted())")
        }
        #expect(svg["libheif.so.1"] == nil && svg["libwebp.so.7"] == nil)
    }

    /// What else is loaded does not change a program: with librsvg, libheif and libwebp open in
    /// this process, a page of PNG stickers and text still names none of them, and its list is
    /// the same as before they were opened (were loaded objects all listed, a page's key would
    /// depend on which pages the export had drawn before it).
    @Test func aProgramDoesNotDependOnWhatElseIsLoaded() {
        let plain = RenderKey.libraries(formats: [.png], text: true, output: .png)
        let program = RenderKey.program(plain)
        let before = LoadedObjects.buildIDs(closureOf: plain.compactMap { techo_lazy_soname($0).map { String(cString: $0) } })
        _ = RenderKey.program(RenderKey.libraries(formats: [.svg, .heif, .webp], text: true, output: .jpeg))
        #expect(techo_lazy_is_loaded(TECHO_LAZY_RSVG) != 0 && techo_lazy_is_loaded(TECHO_LAZY_HEIF) != 0 && techo_lazy_is_loaded(TECHO_LAZY_WEBP) != 0)
        let lines = Self.lines(plain)
        for name in ["librsvg-2.so.2", "libheif.so.1", "libwebp.so.7", "libjpeg.so.62", "libx265.so.199"] {
            #expect(lines[name] == nil, "\(name) is in the program of a page that does not draw with it")
        }
        for name in ["libpng16.so.16", "libfreetype.so.6", "libharfbuzz.so.0", "libfontconfig.so.1", "libdeflate.so.0"] {
            #expect(lines[name] != nil, "\(name) is missing from the program of a page of PNG stickers and text")
        }
        let after = LoadedObjects.buildIDs(closureOf: plain.compactMap { techo_lazy_soname($0).map { String(cString: $0) } })
        #expect(before == after)
        #expect(RenderKey.program(plain) == program)
    }

    /// The build-id read in memory is the one in the library's file on disk (its PT_NOTE, read
    /// here from the file the process mapped).
    @Test func aLibrarysBuildIDIsTheOneInItsFile() throws {
        let lines = Self.lines([TECHO_LAZY_DEFLATE])
        // Read to its end: a /proc file's size is 0, which a whole-file read would trust.
        let maps = String(decoding: try #require(FileHandle(forReadingAtPath: "/proc/self/maps")).readDataToEndOfFile(), as: UTF8.self)
        let path = try #require(
            maps.split(separator: "\n").compactMap { $0.split(separator: " ", omittingEmptySubsequences: true).last.map(String.init) }
                .first { ($0 as NSString).lastPathComponent.hasPrefix("libdeflate.so") })
        let file = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let id = try #require(Self.buildID(elf: file), "no build-id in \(path)")
        #expect(lines["libdeflate.so.0"] == id)
    }

    /// The GNU build-id note of a 64-bit little-endian ELF file, as hex.
    static func buildID(elf b: [UInt8]) -> String? {
        func u(_ at: Int, _ n: Int) -> Int { (0..<n).reduce(0) { $0 | Int(b[at + $1]) << (8 * $1) } }
        guard b.count > 64, b[0..<4] == [0x7f, 0x45, 0x4c, 0x46], b[4] == 2 else { return nil }
        let phoff = u(32, 8), phentsize = u(54, 2), phnum = u(56, 2)
        for i in 0..<phnum {
            let h = phoff + i * phentsize
            guard u(h, 4) == 4 else { continue }  // PT_NOTE
            var at = u(h + 8, 8)
            let end = at + u(h + 32, 8)
            while at + 12 <= end {
                let nameSize = u(at, 4), descSize = u(at + 4, 4), type = u(at + 8, 4)
                let desc = at + 12 + (nameSize + 3) / 4 * 4
                if type == 3 && nameSize == 4 && Array(b[at + 12..<at + 16]) == Array("GNU\0".utf8) {
                    return b[desc..<desc + descSize].map { String(format: "%02x", $0) }.joined()
                }
                at = desc + (descSize + 3) / 4 * 4
            }
        }
        return nil
    }
}
