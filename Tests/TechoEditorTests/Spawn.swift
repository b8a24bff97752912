// Starting a child process with posix_spawn, its descriptors placed by file actions and its
// signals as a fresh process has them. The test runner's worker threads block every signal, and
// a spawned child inherits that mask: a `techo serve` started from such a thread with Foundation's
// Process would never see the SIGTERM meant to stop it. So the mask is emptied and the default
// dispositions restored in the child.

import Foundation

#if canImport(Glibc)
    import Glibc
#endif

enum Spawn {
    /// Starts `path` with `args` (argv[0] included). `stdout`: a descriptor for the child's fd 1,
    /// or nil for `log`; fd 2 goes to `log`; `dup`: more (ours, theirs) descriptor pairs.
    static func start(_ path: String, _ args: [String], stdout: Int32? = nil, log: String, dup: [(Int32, Int32)] = []) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, log, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        if let stdout { posix_spawn_file_actions_adddup2(&actions, stdout, 1) } else { posix_spawn_file_actions_adddup2(&actions, 2, 1) }
        for (ours, theirs) in dup { posix_spawn_file_actions_adddup2(&actions, ours, theirs) }

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t(), all = sigset_t()
        sigemptyset(&empty)
        sigfillset(&all)
        sigdelset(&all, SIGKILL)
        sigdelset(&all, SIGSTOP)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        var cArgs: [UnsafeMutablePointer<CChar>?] = args.map { strdup($0) } + [nil]
        defer { for p in cArgs { free(p) } }
        var child: pid_t = 0
        let rc = posix_spawn(&child, path, &actions, &attributes, &cArgs, environ)
        guard rc == 0 else { throw DevToolsError(description: "posix_spawn \(path): \(String(cString: strerror(rc)))") }
        return child
    }

    /// Waits up to `timeout` seconds for `pid` to exit; returns its wait status, or nil.
    static func wait(_ pid: pid_t, timeout: TimeInterval) -> Int32? {
        let deadline = Date().addingTimeInterval(timeout)
        var status: Int32 = 0
        while true {
            let r = waitpid(pid, &status, WNOHANG)
            if r == pid || (r < 0 && errno == ECHILD) { return status }
            if Date() > deadline { return nil }
            usleep(10_000)
        }
    }

    /// A pipe whose ends are closed on exec (file actions dup the child's end onto its place),
    /// moved above 10 so dup2 onto 0…4 always makes a fresh descriptor.
    static func pipePair() throws -> (read: Int32, write: Int32) {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw DevToolsError(description: "pipe: \(String(cString: strerror(errno)))") }
        let r = fcntl(fds[0], F_DUPFD_CLOEXEC, 10), w = fcntl(fds[1], F_DUPFD_CLOEXEC, 10)
        close(fds[0]); close(fds[1])
        return (r, w)
    }
}
