// The cores this process may run on: the CPUs of its affinity mask (what `taskset`, a cgroup
// cpuset or a container's `--cpuset-cpus` leave it), at most the machine's online cores.
// Foundation's `activeProcessorCount` counts the machine's, so a process pinned to one core
// would start a thread per core of the machine on it.
import Foundation

public enum Cores {
    /// At least 1.
    public static let available: Int = {
        let online = max(1, ProcessInfo.processInfo.activeProcessorCount)
        guard let allowed = affinityCount() else { return online }
        return max(1, min(online, allowed))
    }()

    /// The number of CPUs in `Cpus_allowed` of /proc/self/status (a hex mask in groups of 32
    /// bits, separated by commas); nil when it cannot be read.
    static func affinityCount(status: String? = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) -> Int? {
        guard let status, let line = status.split(separator: "\n").first(where: { $0.hasPrefix("Cpus_allowed:") }) else { return nil }
        var count = 0
        for c in line.dropFirst("Cpus_allowed:".count) where c != "," && c != " " && c != "\t" {
            guard let v = c.hexDigitValue else { return nil }
            count += v.nonzeroBitCount
        }
        return count > 0 ? count : nil
    }
}
