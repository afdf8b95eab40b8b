/// The subscription ledger's book: a debug-build record of the subscription objects that are
/// alive right now. Users read it through TetherExtras' `SubscriptionLedger`, which documents
/// what is recorded where; this is the package's own bookkeeping, not Combine's API.
///
/// Every subscription and subscriber object that Tether creates enters the book when it is made
/// (``enter(_:)``) and leaves it when it is deallocated (``leave(_:)``). The subscribers that end
/// a chain also get an origin (``noteOrigin(_:publisher:file:line:)``): the chain of publishers
/// they are attached to, and the call site when their entry point can take one (Combine's
/// `sink`, `assign(to:on:)` and `subscribe(_:)` cannot; TetherExtras' own entry points do). In
/// release builds the book is compiled out.
@usableFromInline
package enum Ledger {
    #if DEBUG
    @usableFromInline
    package struct Record: Sendable {
        var type: any AnyObject.Type
        var serial: UInt64
        var scope: UInt64
        var origin: Origin?
    }

    @usableFromInline
    package struct Book: Sendable {
        var records: [ObjectIdentifier: Record] = [:]
        var nextSerial: UInt64 = 1
        var nextScope: UInt64 = 1
    }

    /// Guarded by the library's one lock primitive, whose ThreadSanitizer builds make its order
    /// visible (see `Locked`): the sanitizer does not see a bare `Mutex`'s contended acquisitions,
    /// and reports every concurrent test as racing on the book.
    @usableFromInline
    package static let book = Locked(Book())

    /// The scope new objects are tagged with, bound by ``withScope(_:)``.
    @TaskLocal
    internal static var currentScope: UInt64 = 0
    #endif

    /// `true` in builds that keep the ledger (debug builds of Tether).
    package static var isEnabled: Bool {
        #if DEBUG
        return true
        #else
        return false
        #endif
    }

    /// The number of Tether subscription objects alive now; always zero in release builds.
    package static var liveCount: Int {
        #if DEBUG
        return book.withLock { $0.records.count }
        #else
        return 0
        #endif
    }

    /// The live subscription objects, oldest first; always empty in release builds.
    /// - Returns: One entry per live object, with its chain and, when recorded, where it was made.
    package static func snapshot() -> [Entry] {
        #if DEBUG
        let records = book.withLock { Array($0.records.values) }
        return records.sorted { $0.serial < $1.serial }.map(Entry.init)
        #else
        return []
        #endif
    }

    /// The live subscription objects that were made inside `scope`, oldest first.
    /// - Parameter scope: A scope that ``withScope(_:)`` opened.
    /// - Returns: The entries of the objects made in the scope and still alive.
    package static func snapshot(in scope: Scope) -> [Entry] {
        #if DEBUG
        let records = book.withLock { book in book.records.values.filter { $0.scope == scope.id } }
        return records.sorted { $0.serial < $1.serial }.map(Entry.init)
        #else
        return []
        #endif
    }

    /// The live subscription objects made after `serial` (see ``Entry/serial`` and
    /// ``currentSerial``), oldest first.
    /// - Parameter serial: A serial read earlier.
    /// - Returns: The entries of objects made since, still alive.
    package static func snapshot(since serial: UInt64) -> [Entry] {
        #if DEBUG
        let records = book.withLock { book in book.records.values.filter { $0.serial > serial } }
        return records.sorted { $0.serial < $1.serial }.map(Entry.init)
        #else
        return []
        #endif
    }

    /// The serial number of the last object that entered the ledger; zero in release builds.
    package static var currentSerial: UInt64 {
        #if DEBUG
        return book.withLock { $0.nextSerial - 1 }
        #else
        return 0
        #endif
    }

    /// Runs `body` in a fresh scope: the objects made by the task (or thread) running it are
    /// tagged with the scope, so that ``snapshot(in:)`` finds them even while other tests make
    /// subscriptions of their own at the same time.
    ///
    /// The tag is a task-local value: objects made on other threads that `body` starts (a
    /// dispatch queue, a detached task) are not tagged. Nested scopes tag with the innermost.
    /// - Parameter body: The work to scope; it receives the scope.
    /// - Returns: What `body` returns.
    package static func withScope<R>(_ body: (Scope) throws -> R) rethrows -> R {
        #if DEBUG
        let scope = Scope(
            id: book.withLock { book in
                defer { book.nextScope += 1 }
                return book.nextScope
            })
        return try $currentScope.withValue(scope.id) { try body(scope) }
        #else
        return try body(Scope(id: 0))
        #endif
    }

    /// Runs asynchronous `body` in a fresh scope; see ``withScope(_:)``.
    /// - Parameters:
    ///   - isolation: The actor the body runs on; inherited from the caller.
    ///   - body: The work to scope; it receives the scope.
    /// - Returns: What `body` returns.
    package static func withScope<R>(
        isolation: isolated (any Actor)? = #isolation, _ body: (Scope) async throws -> R
    ) async rethrows -> R {
        #if DEBUG
        let scope = Scope(
            id: book.withLock { book in
                defer { book.nextScope += 1 }
                return book.nextScope
            })
        return try await $currentScope.withValue(scope.id, operation: { try await body(scope) }, isolation: isolation)
        #else
        return try await body(Scope(id: 0))
        #endif
    }

    /// Records that `object` is alive. Called from the initialisers of subscription objects.
    @inlinable
    package static func enter(_ object: AnyObject) {
        #if DEBUG
        register(ObjectIdentifier(object), Swift.type(of: object))
        #endif
    }

    /// Records that `object` is alive, under the name of the type the user made: an object that
    /// stands for one of Combine's types (a subject's `sink`, made as one object with its
    /// subscription) is listed as that type.
    @inlinable
    package static func enter(_ object: AnyObject, as type: any AnyObject.Type) {
        #if DEBUG
        register(ObjectIdentifier(object), type)
        #endif
    }

    /// Records that `object` is gone. Called from the deinitialisers of subscription objects.
    @inlinable
    package static func leave(_ object: AnyObject) {
        #if DEBUG
        unregister(ObjectIdentifier(object))
        #endif
    }

    #if DEBUG
    @usableFromInline
    package static func unregister(_ id: ObjectIdentifier) {
        _ = book.withLock { $0.records.removeValue(forKey: id) }
    }

    @usableFromInline
    package static func register(_ id: ObjectIdentifier, _ type: any AnyObject.Type) {
        let scope = currentScope
        book.withLock { book in
            book.records[id] = Record(type: type, serial: book.nextSerial, scope: scope, origin: nil)
            book.nextSerial += 1
        }
    }

    /// Records the chain `subscriber` is attached to and, when the entry point can take it, the
    /// call site; replaces any earlier origin. Called by the entry points before they subscribe:
    /// Combine's `sink` and `assign(to:on:)` pass no call site, TetherExtras' own ones do.
    @usableFromInline
    package static func noteOrigin<P: Publisher>(
        _ subscriber: AnyObject, publisher: P, file: StaticString? = nil, line: UInt? = nil
    ) {
        let origin = Origin(chain: chainTypes(of: publisher), file: file, line: line)
        let id = ObjectIdentifier(subscriber)
        book.withLock { book in book.records[id]?.origin = origin }
    }

    /// Records the chain a subscriber that ends a chain (``ChainEnd``: `Sink`, `Assign`,
    /// TetherExtras' sinks) was attached to by `subscribe(_:)`, unless it already knows; ignores
    /// every other subscriber, so the operators' own inner subscriptions cost no reflection.
    @usableFromInline
    package static func noteSubscribe<P: Publisher, S: Subscriber>(_ subscriber: S, publisher: P) {
        guard let object = subscriber as? any ChainEnd else { return }
        let id = ObjectIdentifier(object)
        let unknown = book.withLock { book in book.records[id].map { $0.origin == nil } ?? false }
        if unknown {
            noteOrigin(object, publisher: publisher)
        }
    }

    /// The types of the publisher and its upstreams, outermost first.
    ///
    /// Value-type publishers are reflected: operators keep their upstream in a property named
    /// `upstream` (merges in `a`). A class instance is never reflected, because its stored
    /// properties may be changing on another thread under a lock the ledger does not hold
    /// (a subject's subscribers, a user's publisher); the walk stops at it, unless it is one of
    /// Tether's classes whose upstream is an immutable property (``LedgerChainLink``).
    private static func chainTypes(of publisher: Any) -> [Any.Type] {
        var types: [Any.Type] = []
        var current: Any? = publisher
        while let value = current, types.count < 32 {
            types.append(Swift.type(of: value))
            current = nil
            if let link = value as? any LedgerChainLink {
                current = link.ledgerUpstream
                continue
            }
            guard !(Swift.type(of: value) is AnyObject.Type) else { break }
            let children = Mirror(reflecting: value).children
            for label in ["upstream", "a", "box"] {
                if let child = children.first(where: { $0.label == label }) {
                    current = child.value
                    break
                }
            }
        }
        return types
    }
    #endif
}

/// A Tether class on a publisher chain whose upstream never changes once it is made, so the
/// debug ledger can name the chain beyond it without reading any mutable state.
@usableFromInline
internal protocol LedgerChainLink: AnyObject {
    /// The publisher this one was made from.
    var ledgerUpstream: Any { get }
}
