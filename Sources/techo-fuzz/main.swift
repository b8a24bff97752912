// techo-fuzz: runs the fuzz targets for a time, or replays saved inputs. See docs/fuzzing.md.
//   techo-fuzz TARGET [--seconds N] [--seed S] [--corpus DIR]... [--crashes DIR] [--timeout S]
//   techo-fuzz TARGET [--memory] --replay FILE...   (exit 1 when a FILE.outcome differs)
//   techo-fuzz TARGET --write-seeds DIR [--corpus DIR]... [--write-dict FILE]   (for libFuzzer)
//   techo-fuzz jpeg|heif --check-gps ORIGINAL STRIPPED   (the GPS trap on a removal made elsewhere)
//   techo-fuzz operations --check-journal DIR | --check-refused BEFORE AFTER   (its invariants)
//   techo-fuzz --list
import Foundation
import TechoFuzzTargets

#if canImport(Glibc)
    import Glibc
#endif

func fail(_ message: String) -> Never {
    FileHandle.standardError.write("techo-fuzz: \(message)\n".data(using: .utf8)!)
    exit(64)
}

var args = Array(CommandLine.arguments.dropFirst())
let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("techo-fuzz-\(getpid())")
defer { try? FileManager.default.removeItem(at: scratch) }
let targets = Targets.all(scratch: scratch)

if args.isEmpty || args == ["--help"] || args == ["--list"] {
    print("usage: techo-fuzz TARGET [--seconds N] [--seed S] [--corpus DIR]... [--crashes DIR] [--timeout S] [--verbose]")
    print("       techo-fuzz TARGET [--memory] --replay FILE...")
    for t in targets { print("  \(t.name)\t\(t.summary)") }
    exit(args.isEmpty ? 64 : 0)
}

let name = args.removeFirst()
guard let target = targets.first(where: { $0.name == name }) else {
    fail("no target '\(name)'; targets: \(targets.map(\.name).joined(separator: ", "))")
}
// A target's checks, on files made elsewhere (a journal's stored picture, a journal folder): they
// print what the fuzzer would trap on, and exit 1 when something is broken, 0 when all is kept.
if let mode = args.first, ["--check-gps", "--check-journal", "--check-refused"].contains(mode) {
    let files = Array(args.dropFirst())
    func read(_ f: String) -> [UInt8] {
        guard let d = FileManager.default.contents(atPath: f) else { fail("cannot read '\(f)'") }
        return [UInt8](d)
    }
    let problem: String?
    switch (mode, name) {
    case ("--check-gps", "jpeg"), ("--check-gps", "heif"):
        guard files.count == 2 else { fail("\(mode) needs ORIGINAL and STRIPPED") }
        let (original, stripped) = (read(files[0]), read(files[1]))
        problem =
            name == "jpeg" ? Targets.jpegGPSProblem(original: original, stripped: stripped) : Targets.heifGPSProblem(original: original, stripped: stripped)
    case ("--check-journal", "operations"):
        guard files.count == 1 else { fail("\(mode) needs a journal folder") }
        problem = Targets.operationsAcceptedProblem(journal: URL(fileURLWithPath: files[0]))
    case ("--check-refused", "operations"):
        guard files.count == 2 else { fail("\(mode) needs BEFORE and AFTER folders") }
        do { problem = try Targets.operationsRefusedProblem(before: URL(fileURLWithPath: files[0]), after: URL(fileURLWithPath: files[1])) } catch {
            fail("cannot read the journal folders: \(error)")
        }
    default: fail("\(mode) is not a check of the \(name) target")
    }
    print(problem ?? "kept")
    exit(problem == nil ? 0 : 1)
}

var seconds = 10.0, seed: UInt64 = 1, corpusDirs: [String] = [], crashes = ".", timeout = 20, verbose = false
var replay: [String]? = nil, memory = false
var seedsOut: String? = nil, dictOut: String? = nil
while !args.isEmpty {
    let a = args.removeFirst()
    func value() -> String { if args.isEmpty { fail("\(a) needs a value") }; return args.removeFirst() }
    switch a {
    case "--seconds": guard let v = Double(value()), v.isFinite, v >= 0 else { fail("--seconds needs a number") }; seconds = v
    case "--seed": guard let v = UInt64(value()) else { fail("--seed needs a whole number") }; seed = v
    case "--corpus": corpusDirs.append(value())
    case "--crashes": crashes = value()
    case "--timeout": guard let v = Int(value()), v > 0 else { fail("--timeout needs seconds") }; timeout = v
    case "--verbose": verbose = true
    case "--memory": memory = true
    case "--replay": replay = args; args = []
    case "--write-seeds": seedsOut = value()
    case "--write-dict": dictOut = value()
    default: fail("unknown option '\(a)'")
    }
}

/// Corpus files: every file under the folders with one of the target's extensions, up to its size.
func corpus(_ dirs: [String]) -> [[UInt8]] {
    var out: [[UInt8]] = []
    for d in dirs {
        guard let e = FileManager.default.enumerator(atPath: d) else { fail("cannot read corpus folder '\(d)'") }
        for case let rel as String in e {
            let ext = (rel as NSString).pathExtension.lowercased()
            guard target.extensions.contains(ext) else { continue }
            let path = (d as NSString).appendingPathComponent(rel)
            if let data = FileManager.default.contents(atPath: path), data.count <= target.maxLength { out.append([UInt8](data)) }
        }
    }
    return out.sorted { $0.lexicographicallyPrecedes($1) }
}

/// A libFuzzer dictionary line: the token quoted, every byte outside printable ASCII (and `"`, `\`) as \xNN.
func dictionaryLine(_ token: [UInt8]) -> String {
    var s = "\""
    for b in token {
        if b >= 0x20 && b < 0x7F && b != 0x22 && b != 0x5C { s.append(Character(UnicodeScalar(b))) } else { s += String(format: "\\x%02X", b) }
    }
    return s + "\""
}

// libFuzzer's seed corpus and dictionary: the built-in seeds and the corpus files, one file each.
if seedsOut != nil || dictOut != nil {
    if let dir = seedsOut {
        do {
            try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
            for (i, s) in (target.seeds + corpus(corpusDirs)).enumerated() {
                try Data(s).write(to: URL(fileURLWithPath: dir).appendingPathComponent(String(format: "seed-%04d", i)))
            }
        } catch { fail("cannot write seeds into '\(dir)': \(error.localizedDescription)") }
    }
    if let file = dictOut {
        let text = target.dictionary.isEmpty ? "" : target.dictionary.map(dictionaryLine).joined(separator: "\n") + "\n"
        guard FileManager.default.createFile(atPath: file, contents: Data(text.utf8)) else { fail("cannot write '\(file)'") }
    }
    exit(0)
}

CrashCapture.install(folder: crashes, target: target.name, seed: seed, timeoutSeconds: timeout)

/// `VmPeak` and `VmHWM` of this process in KiB (peak address space reserved, peak resident).
func peakMemory() -> (virtualKiB: Int, residentKiB: Int) {
    let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
    func field(_ name: String) -> Int {
        for line in status.split(separator: "\n") where line.hasPrefix(name + ":") {
            return Int(line.dropFirst(name.count + 1).filter(\.isNumber)) ?? -1
        }
        return -1
    }
    return (field("VmPeak"), field("VmHWM"))
}

// A replay prints each outcome verbatim (full messages, numbers kept). A file with an
// expected outcome beside it (`FILE.outcome`, the outcome's text) must give exactly that, or
// the replay exits 1: a regression that comes back as a different refusal is caught, not only
// one that crashes.
if let files = replay {
    OutcomeStyle.verbatim = true
    var changed = 0
    for f in files {
        guard let data = FileManager.default.contents(atPath: f) else { fail("cannot read '\(f)'") }
        let outcome = CrashCapture.execute([UInt8](data), target.run)
        print("\(f): \(outcome)")
        if let expected = FileManager.default.contents(atPath: f + ".outcome") {
            let want = String(decoding: expected, as: UTF8.self).trimmingCharacters(in: .newlines)
            if outcome != want {
                changed += 1
                FileHandle.standardError.write("techo-fuzz: \(f): the outcome changed\n  expected: \(want)\n  got:      \(outcome)\n".data(using: .utf8)!)
            }
        }
    }
    if memory {
        let m = peakMemory()
        print("peak memory: \(m.virtualKiB) KiB reserved, \(m.residentKiB) KiB resident")
    }
    exit(changed == 0 ? 0 : 1)
}

let files = corpus(corpusDirs)
let start = Date()
let result = FuzzRun(target: target, seed: seed, seconds: seconds, corpusFiles: files, verbose: verbose).go()
let took = Date().timeIntervalSince(start)
print(
    "techo-fuzz \(target.name): seed \(seed), \(result.runs) runs in \(String(format: "%.1f", took)) s, \(files.count) corpus files, \(result.outcomes) distinct outcomes, no crash"
)
