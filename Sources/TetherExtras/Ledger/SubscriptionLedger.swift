import TetherCore

/// A debug-build ledger of the subscription objects that are alive right now.
///
/// Every subscription and subscriber object that Tether creates enters the ledger when it is made
/// and leaves it when it is deallocated. A test that ends with a non-empty ledger has leaked a
/// subscription: something still holds a chain that should have been released by completion or
/// cancellation. In release builds of Tether the ledger is compiled out: ``liveCount`` is always
/// zero and ``snapshot()`` is empty.
///
/// What is recorded where:
/// - Every object: its type and the order in which it was made (``Entry/type``,
///   ``Entry/serial``).
/// - Subscribers attached by Combine's `sink(receiveCompletion:receiveValue:)`,
///   `sink(receiveValue:)` and `assign(to:on:)`, and `Sink` or `Assign` objects attached by
///   `subscribe(_:)`: the chain of publishers they are attached to (``Entry/chain``, for example
///   `Sink ← Map ← PassthroughSubject`). Combine's signatures take no call site, so these
///   entries have no ``Entry/file`` or ``Entry/line``.
/// - Subscribers attached by TetherExtras' own entry points (`sink(weak:…)`,
///   `assign(to:on:ownership:)`): the chain and the call's file and line.
///
/// The ledger is not part of Combine; it comes with `import TetherExtras`.
public enum SubscriptionLedger {
    /// `true` in builds that keep the ledger (debug builds of Tether).
    public static var isEnabled: Bool { Ledger.isEnabled }

    /// The number of Tether subscription objects alive now; always zero in release builds.
    public static var liveCount: Int { Ledger.liveCount }

    /// The serial number of the last object that entered the ledger; zero in release builds.
    public static var currentSerial: UInt64 { Ledger.currentSerial }

    /// The live subscription objects, oldest first; always empty in release builds.
    /// - Returns: One entry per live object, with its chain and, when recorded, where it was made.
    public static func snapshot() -> [Entry] {
        Ledger.snapshot().map(Entry.init)
    }

    /// The live subscription objects that were made inside `scope`, oldest first.
    /// - Parameter scope: A scope that ``withScope(_:)`` opened.
    /// - Returns: The entries of the objects made in the scope and still alive.
    public static func snapshot(in scope: Scope) -> [Entry] {
        Ledger.snapshot(in: .init(id: scope.id)).map(Entry.init)
    }

    /// The live subscription objects made after `serial` (see ``Entry/serial`` and
    /// ``currentSerial``), oldest first.
    /// - Parameter serial: A serial read earlier.
    /// - Returns: The entries of objects made since, still alive.
    public static func snapshot(since serial: UInt64) -> [Entry] {
        Ledger.snapshot(since: serial).map(Entry.init)
    }

    /// Runs `body` in a fresh scope: the objects made by the task (or thread) running it are
    /// tagged with the scope, so that ``snapshot(in:)`` finds them even while other tests make
    /// subscriptions of their own at the same time.
    ///
    /// The tag is a task-local value: objects made on other threads that `body` starts (a
    /// dispatch queue, a detached task) are not tagged. Nested scopes tag with the innermost.
    /// - Parameter body: The work to scope; it receives the scope.
    /// - Returns: What `body` returns.
    public static func withScope<R>(_ body: (Scope) throws -> R) rethrows -> R {
        try Ledger.withScope { scope in try body(Scope(id: scope.id)) }
    }

    /// Runs asynchronous `body` in a fresh scope; see ``withScope(_:)``.
    /// - Parameters:
    ///   - isolation: The actor the body runs on; inherited from the caller.
    ///   - body: The work to scope; it receives the scope.
    /// - Returns: What `body` returns.
    public static func withScope<R>(
        isolation: isolated (any Actor)? = #isolation, _ body: (Scope) async throws -> R
    ) async rethrows -> R {
        try await Ledger.withScope(isolation: isolation) { scope in
            try await body(Scope(id: scope.id))
        }
    }
}
