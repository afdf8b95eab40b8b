import Foundation
import Synchronization

/// Where the database lives while the demo writes it, and where it ends up.
///
/// The demo always writes to a working file. For a path the user gave, that file sits beside the
/// path under a hidden temporary name and is renamed onto the path only after a successful run,
/// so the path holds either its old content or a complete database, never half of one. The
/// default database is a temporary file that is removed at the end, whatever happens. The
/// working file is also removed if the process is interrupted (SIGINT or SIGTERM).
final class DatabaseFile: Sendable {
    /// Why the database cannot be written, in words for the command line.
    struct PathError: Error, CustomStringConvertible {
        let description: String
    }

    /// Where the demo writes while it runs.
    let workingPath: String
    /// Where the database goes on success; `nil` for the default temporary database.
    let destination: String?
    /// Whether the working file still needs removing (or renaming).
    private let pending = Mutex(true)

    /// Creates the working file for `destination` (or a temporary one), or throws a
    /// ``PathError`` naming what is wrong with the path.
    init(destination: String?) throws(PathError) {
        self.destination = destination
        let directory: String
        let name: String
        if let destination {
            let url = URL(fileURLWithPath: destination)
            directory = url.deletingLastPathComponent().path
            name = ".\(url.lastPathComponent).partial-\(getpid())"
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: destination, isDirectory: &isDirectory), isDirectory.boolValue {
                throw PathError(description: "cannot write the database to \(destination): it is a directory")
            }
            guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) else {
                throw PathError(
                    description:
                        "cannot write the database to \(destination): the directory \(directory) does not exist")
            }
            guard isDirectory.boolValue else {
                throw PathError(
                    description: "cannot write the database to \(destination): \(directory) is not a directory")
            }
        } else {
            directory = FileManager.default.temporaryDirectory.path
            name = "tether-demo-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).sqlite"
        }
        workingPath = URL(fileURLWithPath: directory).appendingPathComponent(name).path
        // Creating the file now finds an unwritable place before any work is done.
        let descriptor = open(workingPath, O_CREAT | O_EXCL | O_WRONLY, 0o644)
        guard descriptor >= 0 else {
            let reason = String(cString: strerror(errno))
            throw PathError(description: "cannot write the database to \(destination ?? workingPath): \(reason)")
        }
        close(descriptor)
        DatabaseFile.removeOnSignal(self)
    }

    /// Moves the finished database to its destination, or removes the temporary one.
    /// - Returns: Where the database is now, or `nil` when it was temporary and is gone.
    func finish() throws(PathError) -> String? {
        guard
            pending.withLock({ pending in
                defer { pending = false }; return pending
            })
        else { return destination }
        guard let destination else {
            Self.removeFiles(at: workingPath)
            return nil
        }
        // Flush before the rename, so that the name never points at data still in flight.
        if let handle = FileHandle(forUpdatingAtPath: workingPath) {
            try? handle.synchronize()
            try? handle.close()
        }
        guard rename(workingPath, destination) == 0 else {
            let reason = String(cString: strerror(errno))
            Self.removeFiles(at: workingPath)
            throw PathError(description: "cannot move the database onto \(destination): \(reason)")
        }
        return destination
    }

    /// Removes the working file, leaving the destination as it was.
    func discard() {
        guard
            pending.withLock({ pending in
                defer { pending = false }; return pending
            })
        else { return }
        Self.removeFiles(at: workingPath)
    }

    /// SQLite may leave a rollback journal beside the file if it stopped mid-transaction.
    private static func removeFiles(at path: String) {
        for suffix in ["", "-journal", "-wal", "-shm"] {
            unlink(path + suffix)
        }
    }

    // MARK: Interruption

    private static let interrupted = Mutex<[DatabaseFile]>([])
    private static let signalSources = Mutex<[any DispatchSourceSignal]>([])

    /// Removes the working file of `file` if the process is told to stop before it finishes.
    private static func removeOnSignal(_ file: DatabaseFile) {
        interrupted.withLock { $0.append(file) }
        signalSources.withLock { sources in
            guard sources.isEmpty else { return }
            for number in [SIGINT, SIGTERM] {
                signal(number, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
                source.setEventHandler {
                    for file in interrupted.withLock({ $0 }) { file.discard() }
                    FileHandle.standardError.write(Data("\ntether-demo: interrupted; nothing was kept\n".utf8))
                    exit(128 + number)
                }
                source.resume()
                sources.append(source)
            }
        }
    }
}
