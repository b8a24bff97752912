// techo-bench: the figures `make bench` prints. Each area has its own file.
import Foundation

if CommandLine.arguments.count > 1 && CommandLine.arguments[1] == "--measure" {
    measureMain(Array(CommandLine.arguments.dropFirst(2)))
}
let only = CommandLine.arguments.dropFirst().first
for (name, run) in benchSections where only == nil || only == name {
    print("== \(name)")
    run()
}
