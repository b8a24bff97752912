// techo-bench: the figures `make bench` prints. Each area has its own file.
import Foundation

if CommandLine.arguments.count > 1 && CommandLine.arguments[1] == "--measure" {
    measureMain(Array(CommandLine.arguments.dropFirst(2)))
}
// `techo-bench --crowded-journal PATH`: only make the move section's journal (for profiling).
if CommandLine.arguments.count == 3 && CommandLine.arguments[1] == "--crowded-journal" {
    do { try makeCrowdedJournal(at: URL(fileURLWithPath: CommandLine.arguments[2])) } catch {
        FileHandle.standardError.write(Data("techo-bench: \(error)\n".utf8))
        exit(1)
    }
    exit(0)
}
let only = CommandLine.arguments.dropFirst().first
for (name, run) in benchSections where only == nil || only == name {
    print("== \(name)")
    run()
}
