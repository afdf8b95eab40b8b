#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs a piece of code that must trap in a child process, by re-running one test.
///
/// A trap (a failed `precondition`) ends the process it happens in, so it cannot be observed
/// from inside a test. `ChildProcessTrap` re-executes the running test binary with the test
/// named by ``test`` and the environment variable ``environmentKey`` set to ``id``. In that
/// child, ``run(_:)`` with the matching id runs the code and reports back through its exit:
/// death by a signal means it trapped. Every other `run(_:)` in the child does nothing.
///
/// Supported on Linux, where the test binary runs a single test when given its name
/// (`TetherTests.ConformanceTableTests/testZeroDemandTraps`). Elsewhere ``run(_:)`` returns
/// ``Outcome/unavailable(_:)``.
public struct ChildProcessTrap: Sendable {
    /// What happened to the code that was expected to trap.
    public enum Outcome: Equatable, Sendable {
        /// It died of the given signal.
        case trapped(signal: Int32)
        /// It returned normally; carries the child's output.
        case returned(output: String)
        /// The child exited with a status without running it (wrong test name, for example).
        case exited(status: Int32, output: String)
        /// This is a child process started for another id; nothing ran.
        case skipped
        /// No child process could be started.
        case unavailable(String)
    }

    /// The environment variable naming the id a child process runs.
    public static let environmentKey = "TETHER_CHILD_PROCESS_TRAP"

    /// The exit status of a child whose code returned instead of trapping.
    static let returnedStatus: Int32 = 86

    /// The test to re-run, as the test binary takes it: `Module.Class/testMethod`.
    public let test: String

    /// Which of the calls in that test the child runs.
    public let id: String

    /// Creates a trap expectation.
    /// - Parameters:
    ///   - test: The test that calls ``run(_:)``, as `Module.Class/testMethod`.
    ///   - id: A name unique among the calls in that test.
    public init(test: String, id: String) {
        self.test = test
        self.id = id
    }

    /// `true` in a child process started by any ``ChildProcessTrap``.
    public static var isChildProcess: Bool {
        getenv(environmentKey) != nil
    }

    /// In the parent, runs `body` in a child process and reports how it ended; in a child,
    /// runs it if the id matches (and ends the process), or does nothing.
    /// - Parameter body: Code expected to trap.
    /// - Returns: How the child ended.
    public func run(_ body: () -> Void) -> Outcome {
        if let requested = getenv(Self.environmentKey) {
            guard String(cString: requested) == id else { return .skipped }
            body()
            exit(Self.returnedStatus)
        }
        return spawn()
    }

    private func spawn() -> Outcome {
        #if os(Linux)
        let executable = "/proc/self/exe"
        var pipeEnds: [Int32] = [0, 0]
        guard pipe(&pipeEnds) == 0 else { return .unavailable("pipe() failed: errno \(errno)") }
        let (readEnd, writeEnd) = (pipeEnds[0], pipeEnds[1])

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, writeEnd, 1)
        posix_spawn_file_actions_adddup2(&actions, writeEnd, 2)
        posix_spawn_file_actions_addclose(&actions, readEnd)

        var environment: [String] = []
        var entry = environ
        while let pointer = entry.pointee {
            let variable = String(cString: pointer)
            if !variable.hasPrefix(Self.environmentKey + "=") && !variable.hasPrefix("SWIFT_BACKTRACE=") {
                environment.append(variable)
            }
            entry += 1
        }
        // The backtracer would spend seconds symbolicating a crash we expect.
        environment.append("SWIFT_BACKTRACE=enable=no")
        environment.append("\(Self.environmentKey)=\(id)")

        let arguments = [executable, test]
        var argv = arguments.map { strdup($0) } + [nil]
        var envp = environment.map { strdup($0) } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }

        var pid = pid_t()
        let spawned = posix_spawn(&pid, executable, &actions, nil, &argv, &envp)
        close(writeEnd)
        guard spawned == 0 else {
            close(readEnd)
            return .unavailable("posix_spawn failed: \(spawned)")
        }

        var output: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(readEnd, $0.baseAddress, $0.count) }
            if count > 0 {
                output += buffer[0..<count]
            } else if count == 0 || errno != EINTR {
                break
            }
        }
        close(readEnd)

        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        let text = String(decoding: output.suffix(2_000), as: UTF8.self)
        let signal = status & 0x7f
        if signal != 0 && signal != 0x7f {
            return .trapped(signal: signal)
        }
        let exitStatus = (status >> 8) & 0xff
        if exitStatus == Self.returnedStatus {
            return .returned(output: text)
        }
        return .exited(status: exitStatus, output: text)
        #else
        return .unavailable("child-process traps are checked on Linux only")
        #endif
    }
}
