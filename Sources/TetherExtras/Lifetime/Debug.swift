import TetherCore

extension Publisher {
    /// Logs every event of each subscription with an identifier, like RxSwift's `debug()`.
    ///
    /// Lines name the identifier, then the event as ``Publisher/print(_:to:)`` spells it:
    /// `receive subscription: (…)`, `request max: (n)` / `request unlimited` (with
    /// `(synchronous)` for demand returned from `receive(_:)`), `receive value: (…)`,
    /// `receive finished`, `receive error: (…)` and `receive cancel`. Without an identifier the
    /// call site's `file:line` is used, so several `debug()` calls in one chain tell themselves
    /// apart. Demand, values and completions pass through unchanged; each line is written on the
    /// thread of its event.
    /// - Parameters:
    ///   - identifier: What to prefix each line with; `nil` uses `file:line`.
    ///   - stream: Where to write; `nil` writes to standard output. Each subscription writes to
    ///     its own copy of the stream, so a stream that should collect lines from several
    ///     subscriptions must be a reference or write through one.
    ///   - file: The file of the call, the default identifier's first half.
    ///   - line: The line of the call, the default identifier's second half.
    /// - Returns: A publisher that logs the events passing through it.
    @inlinable
    public func debug(
        _ identifier: String? = nil, to stream: (any TextOutputStream)? = nil,
        file: StaticString = #fileID, line: UInt = #line
    ) -> Publishers.Print<Self> {
        print("[\(identifier ?? "\(file):\(line)")]", to: stream)
    }
}
