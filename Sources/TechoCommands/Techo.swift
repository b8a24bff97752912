// Placeholder until the command line lands.
public enum Techo {
    public static let version = "0.1.0"
    public static func main(_ arguments: [String]) -> Int32 {
        if arguments.dropFirst().first == "--version" { print("techo \(version)"); return 0 }
        FileHandle.standardError.write("techo: error: not implemented yet\n".data(using: .utf8)!)
        return 1
    }
}
import Foundation
