// The GNU build-ids of the program and of every shared object mapped into it, read from their
// ELF note segments in memory (glibc's dl_iterate_phdr). A linker writes a new build-id for every
// different link, so the list changes whenever any code that can draw a page changes.
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

enum LoadedObjects {
    /// One line per object mapped into the process, sorted: `program BUILDID` for the executable,
    /// `BUILDID` for a shared object with one, `PATH size MTIME` for one without. The kernel's
    /// vDSO is left out (it changes with the kernel and draws nothing).
    static func buildIDs() -> [String] {
        #if os(Linux)
            // dl_iterate_phdr is not in Swift's Glibc module; it has been in glibc since 2.2.4.
            typealias Callback = @convention(c) (UnsafeRawPointer?, Int, UnsafeMutableRawPointer?) -> Int32
            typealias Iterate = @convention(c) (Callback, UnsafeMutableRawPointer?) -> Int32
            guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "dl_iterate_phdr") else { return ["no dl_iterate_phdr"] }
            let iterate = unsafeBitCast(symbol, to: Iterate.self)
            let box = Lines()
            _ = iterate(
                { info, _, data in
                    guard let info, let data else { return 0 }
                    Unmanaged<Lines>.fromOpaque(data).takeUnretainedValue().items.append(LoadedObjects.describe(info))
                    return 0
                }, Unmanaged.passUnretained(box).toOpaque())
            return box.items.compactMap { $0 }.sorted()
        #else
            return ["program " + ProcessInfo.processInfo.arguments[0]]
        #endif
    }

    private final class Lines { var items: [String?] = [] }

    /// The line for one `struct dl_phdr_info` (glibc's layout on 64-bit Linux: load address,
    /// name, program headers, their count), or nil for the vDSO.
    private static func describe(_ info: UnsafeRawPointer) -> String? {
        let base = info.load(as: UInt.self)
        let name = info.load(fromByteOffset: 8, as: UnsafePointer<CChar>?.self).map { String(cString: $0) } ?? ""
        if name.hasPrefix("linux-vdso") || name.hasPrefix("linux-gate") { return nil }
        let headers = info.load(fromByteOffset: 16, as: UnsafeRawPointer?.self)
        let count = Int(info.load(fromByteOffset: 24, as: UInt16.self))
        if let headers, let id = buildID(base: base, headers: headers, count: count) {
            return name.isEmpty ? "program " + id : id
        }
        // No build-id: the file as it is on disk.
        let path = name.isEmpty ? "/proc/self/exe" : name
        var st = stat()
        guard stat(path, &st) == 0 else { return "\(path) missing" }
        return "\(path) \(st.st_size) \(st.st_mtim.tv_sec).\(st.st_mtim.tv_nsec)"
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
