import Foundation
import Synchronization

/// A progress bar on standard output: redrawn in place with `\r` on a terminal, and a few
/// milestone lines (a quarter, half, three quarters, all) otherwise, so that logs stay short.
final class ProgressBar: Sendable {
    private let total: Int
    private let label: String
    private let isTerminal = isatty(STDOUT_FILENO) == 1
    /// The last width drawn on a terminal, or the last milestone printed elsewhere.
    private let shown = Mutex(-1)
    private static let width = 30

    init(label: String, total: Int) {
        self.label = label
        self.total = max(total, 1)
    }

    /// Shows that `done` of the total are done; callable from any thread.
    func update(_ done: Int) {
        if isTerminal {
            let filled = done * Self.width / total
            let redraw = shown.withLock { shown in
                // Redraw on each value near the end too, so that the count reads right.
                defer { shown = filled }
                return filled != shown || done == total || done % 10 == 0
            }
            guard redraw else { return }
            let bar = String(repeating: "█", count: filled) + String(repeating: "·", count: Self.width - filled)
            write("\r  \(label) [\(bar)] \(done)/\(total)" + (done == total ? "\n" : ""))
        } else {
            let milestone = done * 4 / total
            let reached = shown.withLock { shown in
                defer { shown = max(shown, milestone) }
                return milestone > shown && milestone > 0
            }
            guard reached else { return }
            write("  \(label): \(done)/\(total) (\(milestone * 25)%)\n")
        }
    }

    private func write(_ text: String) {
        // Through `print`, like every other line, so that piped output keeps its order.
        print(text, terminator: "")
        fflush(nil)
    }
}
