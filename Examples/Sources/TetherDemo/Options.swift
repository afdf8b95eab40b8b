/// The command line: `tether-demo [--items N] [--database PATH] [--port P] [--help]`.
struct Options {
    /// How many items the server offers; one of them is malformed.
    var items = 8
    /// Where to keep the database; `nil` means a temporary file, removed at the end.
    var database: String?
    /// The port to listen on; 0 lets the system choose a free one.
    var port: UInt16 = 0

    static let usage = """
        USAGE: tether-demo [--items N] [--database PATH] [--port P] [--help]

        Starts an HTTP server on 127.0.0.1 serving JSON items (some slow, one malformed), loads
        them with a ModelLoader (URLSession.dataTaskPublisher, decode, flatMap into SQLite),
        processes a burst of stock changes one at a time with asyncSink, runs a Timer clock and
        a NotificationCenter observer bound to an owner's lifetime, then prints the ledger of
        live subscriptions, what was stored, and timings. Every step is checked; the exit code
        is non-zero if a check fails.

        OPTIONS:
          --items N        Items to serve and load, 2...1000 (default: 8).
          --database PATH  The SQLite file to write. It is written beside PATH under a
                           temporary name and renamed onto PATH only when the run succeeds,
                           replacing any file there; on failure PATH is left untouched.
                           Default: a temporary file, removed at the end.
          --port P         The port to listen on (default: 0, any free port).
          --help           Show this help.
        """

    /// What parsing found: options to run with, or a request for help.
    enum Parsed {
        case run(Options)
        case help
    }

    /// A command line that cannot be run, with the message to show.
    struct UsageError: Error {
        let message: String
    }

    /// Parses `arguments` (without the program name); accepts `--name value` and `--name=value`.
    static func parse(_ arguments: [String]) throws(UsageError) -> Parsed {
        var options = Options()
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            let (name, inlineValue) = split(argument)
            func value() throws(UsageError) -> String {
                if let inlineValue { return inlineValue }
                guard let next = remaining.popFirst(), !next.hasPrefix("--") else {
                    throw UsageError(message: "\(name) needs a value")
                }
                return next
            }
            switch name {
            case "--help", "-h":
                return .help
            case "--items":
                let text = try value()
                guard let items = Int(text), (2...1000).contains(items) else {
                    throw UsageError(message: "--items must be a whole number from 2 to 1000, not '\(text)'")
                }
                options.items = items
            case "--database":
                let path = try value()
                guard !path.isEmpty else { throw UsageError(message: "--database needs a path") }
                options.database = path
            case "--port":
                let text = try value()
                guard let port = UInt16(text) else {
                    throw UsageError(message: "--port must be a number from 0 to 65535, not '\(text)'")
                }
                options.port = port
            default:
                throw UsageError(message: "unknown argument '\(argument)'")
            }
        }
        return .run(options)
    }

    private static func split(_ argument: String) -> (String, String?) {
        guard argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") else { return (argument, nil) }
        return (String(argument[..<equals]), String(argument[argument.index(after: equals)...]))
    }
}
