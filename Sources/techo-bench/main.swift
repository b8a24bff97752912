// techo-bench: the figures `make bench` prints. Each area has its own file.
import Foundation

let only = CommandLine.arguments.dropFirst().first
for (name, run) in benchSections where only == nil || only == name {
    print("== \(name)")
    run()
}
