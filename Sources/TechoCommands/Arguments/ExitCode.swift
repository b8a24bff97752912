// Exit codes, after BSD sysexits(3): scripts can tell a typing mistake from a bad file.

/// What `techo` returns to the shell.
public enum ExitCode: Int32, Sendable, CaseIterable {
    /// Everything asked was done.
    case success = 0
    /// The command ran but failed: an I/O error, a full disk, a locked journal that stayed
    /// locked, a journal that `check` found broken.
    case failure = 1
    /// The command line is wrong: unknown command or option, missing or malformed argument
    /// (EX_USAGE).
    case usage = 64
    /// An input file is malformed: a manifest, journal, page, image or gesture file that does
    /// not parse or breaks a rule or a limit (EX_DATAERR).
    case dataError = 65
    /// An input file, journal, page or element does not exist or cannot be read (EX_NOINPUT).
    case noInput = 66
    /// An output file or folder cannot be created (EX_CANTCREAT).
    case cannotCreate = 73

    /// One line per code for `techo --help` and the README.
    public var meaning: String {
        switch self {
        case .success: return "success"
        case .failure: return "the command failed (I/O error, journal locked, check found problems)"
        case .usage: return "usage error: unknown command or option, bad or missing argument"
        case .dataError: return "bad input data: a manifest, journal, image or gesture file is invalid or over a limit"
        case .noInput: return "an input file, journal, page or element does not exist or cannot be read"
        case .cannotCreate: return "an output file or folder cannot be created"
        }
    }
}
