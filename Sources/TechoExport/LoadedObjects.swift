// The GNU build-ids of the program and of the shared objects it is linked with, read from their
// ELF note segments in memory (glibc's dl_iterate_phdr). A linker writes a new build-id for every
// different link, so the list changes whenever any code that can draw a page changes.
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

enum LoadedObjects {
    /// One object mapped into the process.
    struct Object {
        /// Its DT_SONAME, or the last part of its path when it has none; "" for the executable.
        var soname: String
        /// The names it was linked against (DT_NEEDED), in order.
        var needed: [String]
        /// `SONAME BUILDID` (`program BUILDID` for the executable), or `PATH size MTIME` for an
        /// object without a build-id.
        var line: String
    }

    /// The lines (`Object.line`), sorted, of the executable, of the loaded objects named in
    /// `roots` (sonames), and of every object those link against, followed name by name through
    /// DT_NEEDED. Which other objects happen to be loaded does not change the list, so it is the
    /// same in a process that has opened more libraries than `roots` and in one that has not.
    /// A root or a needed name that is not loaded is left out (a library that cannot be opened
    /// is simply absent). The kernel's vDSO is never in it (it changes with the kernel and
    /// draws nothing).
    static func buildIDs(closureOf roots: [String]) -> [String] {
        let objects = loaded()
        let bySoname = Dictionary(objects.map { ($0.soname, $0) }, uniquingKeysWith: { first, _ in first })
        var seen: Set<String> = []
        var queue = [""] + roots
        var lines: [String] = []
        while let name = queue.popLast() {
            guard seen.insert(name).inserted, let o = bySoname[name] else { continue }
            lines.append(o.line)
            queue += o.needed
        }
        return lines.sorted()
    }

    /// Every object mapped into the process but the vDSO, in the order glibc lists them.
    static func loaded() -> [Object] {
        #if os(Linux)
            // dl_iterate_phdr is not in Swift's Glibc module; it has been in glibc since 2.2.4.
            typealias Callback = @convention(c) (UnsafeRawPointer?, Int, UnsafeMutableRawPointer?) -> Int32
            typealias Iterate = @convention(c) (Callback, UnsafeMutableRawPointer?) -> Int32
            guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "dl_iterate_phdr") else {
                return [Object(soname: "", needed: [], line: "no dl_iterate_phdr")]
            }
            let iterate = unsafeBitCast(symbol, to: Iterate.self)
            let box = Objects()
            _ = iterate(
                { info, _, data in
                    guard let info, let data else { return 0 }
                    if let o = LoadedObjects.describe(info) { Unmanaged<Objects>.fromOpaque(data).takeUnretainedValue().items.append(o) }
                    return 0
                }, Unmanaged.passUnretained(box).toOpaque())
            return box.items
        #else
            return [Object(soname: "", needed: [], line: "program " + ProcessInfo.processInfo.arguments[0])]
        #endif
    }

    private final class Objects { var items: [Object] = [] }

    /// The object for one `struct dl_phdr_info` (glibc's layout on 64-bit Linux: load address,
    /// name, program headers, their count), or nil for the vDSO.
    private static func describe(_ info: UnsafeRawPointer) -> Object? {
        let base = info.load(as: UInt.self)
        let name = info.load(fromByteOffset: 8, as: UnsafePointer<CChar>?.self).map { String(cString: $0) } ?? ""
        if name.hasPrefix("linux-vdso") || name.hasPrefix("linux-gate") { return nil }
        let headers = info.load(fromByteOffset: 16, as: UnsafeRawPointer?.self)
        let count = Int(info.load(fromByteOffset: 24, as: UInt16.self))
        let (soname, needed) = headers.map { dynamicNames(base: base, headers: $0, count: count) } ?? (nil, [])
        let me = name.isEmpty ? "" : soname ?? String(name.split(separator: "/").last ?? "")
        if let headers, let id = buildID(base: base, headers: headers, count: count) {
            return Object(soname: me, needed: needed, line: (name.isEmpty ? "program" : me) + " " + id)
        }
        // No build-id: the file as it is on disk.
        let path = name.isEmpty ? "/proc/self/exe" : name
        var st = stat()
        guard stat(path, &st) == 0 else { return Object(soname: me, needed: needed, line: "\(path) missing") }
        return Object(soname: me, needed: needed, line: "\(path) \(st.st_size) \(st.st_mtim.tv_sec).\(st.st_mtim.tv_nsec)")
    }

    /// DT_SONAME and the DT_NEEDED names of the object's dynamic section (PT_DYNAMIC), read in
    /// memory. glibc rewrites DT_STRTAB to an address where the section is writable and leaves
    /// it an offset from the load address where not, so a value outside the object's loaded
    /// segments is taken as an offset.
    private static func dynamicNames(base: UInt, headers: UnsafeRawPointer, count: Int) -> (soname: String?, needed: [String]) {
        let ptLoad: UInt32 = 1, ptDynamic: UInt32 = 2
        var dynamic: UInt?
        var low = UInt.max, high: UInt = 0
        for i in 0..<count {
            let h = headers + 56 * i  // sizeof(Elf64_Phdr)
            let type = h.load(as: UInt32.self)
            let vaddr = UInt(h.load(fromByteOffset: 16, as: UInt64.self))
            if type == ptDynamic { dynamic = base &+ vaddr }
            if type == ptLoad {
                low = min(low, base &+ vaddr)
                high = max(high, base &+ vaddr &+ UInt(h.load(fromByteOffset: 40, as: UInt64.self)))
            }
        }
        guard let dynamic, let entries = UnsafeRawPointer(bitPattern: dynamic) else { return (nil, []) }
        let dtNeeded: Int64 = 1, dtStrtab: Int64 = 5, dtSoname: Int64 = 14
        var strtab: UInt?, soname: UInt?, needed: [UInt] = []
        var at = 0
        while true {
            let tag = entries.load(fromByteOffset: at, as: Int64.self)
            let value = UInt(entries.load(fromByteOffset: at + 8, as: UInt64.self))
            if tag == 0 { break }
            switch tag {
            case dtNeeded: needed.append(value)
            case dtStrtab: strtab = value
            case dtSoname: soname = value
            default: break
            }
            at += 16  // sizeof(Elf64_Dyn)
        }
        guard var table = strtab else { return (nil, []) }
        if !(low..<high).contains(table) { table = base &+ table }
        func string(_ offset: UInt) -> String? {
            UnsafePointer<CChar>(bitPattern: table &+ offset).map { String(cString: $0) }
        }
        return (soname.flatMap(string), needed.compactMap(string))
    }

    /// The NT_GNU_BUILD_ID note among the PT_NOTE segments of one object, as hex.
    private static func buildID(base: UInt, headers: UnsafeRawPointer, count: Int) -> String? {
        let ptNote: UInt32 = 4, ntGNUBuildID: UInt32 = 3, gnu: UInt32 = 0x0055_4E47  // "GNU\0"
        for i in 0..<count {
            let h = headers + 56 * i  // sizeof(Elf64_Phdr)
            guard h.load(as: UInt32.self) == ptNote else { continue }
            let size = Int(h.load(fromByteOffset: 40, as: UInt64.self))  // p_memsz
            guard let notes = UnsafeRawPointer(bitPattern: base &+ UInt(h.load(fromByteOffset: 16, as: UInt64.self))) else { continue }
            var at = 0
            while at + 12 <= size {
                let nameSize = Int(notes.loadUnaligned(fromByteOffset: at, as: UInt32.self))
                let descSize = Int(notes.loadUnaligned(fromByteOffset: at + 4, as: UInt32.self))
                let type = notes.loadUnaligned(fromByteOffset: at + 8, as: UInt32.self)
                let desc = at + 12 + ((nameSize + 3) & ~3)
                guard desc + descSize <= size else { break }
                if type == ntGNUBuildID && nameSize == 4 && notes.loadUnaligned(fromByteOffset: at + 12, as: UInt32.self) == gnu {
                    return hex(UnsafeRawBufferPointer(start: notes + desc, count: descSize))
                }
                at = desc + ((descSize + 3) & ~3)
            }
        }
        return nil
    }

    static func hex<C: Sequence>(_ bytes: C) -> String where C.Element == UInt8 {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        for b in bytes { out += [digits[Int(b >> 4)], digits[Int(b & 15)]] }
        return String(decoding: out, as: UTF8.self)
    }
}
