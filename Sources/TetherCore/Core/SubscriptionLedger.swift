import Synchronization

/// A debug-build ledger of the subscription objects that are alive right now.
///
/// Every subscription and subscriber object that Tether creates enters the ledger when it is made
/// and leaves it when it is deallocated. A test that ends with a non-empty ledger has leaked a
/// subscription: something still holds a chain that should have been released by completion or
/// cancellation. The subscribers made by `sink`, `assign` and `subscribe` also record where they
/// were made and the chain of publishers they are attached to, so a leak report names the line
/// to fix. In release builds the ledger is compiled out: ``liveCount`` is always zero and
/// ``snapshot()`` is empty.
public enum SubscriptionLedger {
    #if DEBUG
    @usableFromInline
    internal struct Record: Sendable {
        var type: any AnyObject.Type
        var serial: UInt64
        var scope: UInt64
        var origin: Origin?
    }

    @usableFromInline
    internal struct Book: Sendable {
        var records: [ObjectIdentifier: Record] = [:]
        var nextSerial: UInt64 = 1
        var nextScope: UInt64 = 1
    }

    @usableFromInline
    internal static let book = Mutex(Book())

    /// The scope new objects are tagged with, bound by ``withScope(_:)``.
    @TaskLocal
    internal static var currentScope: UInt64 = 0
    #endif

    /// `true` in builds that keep the ledger (debug builds of Tether).
    public static var isEnabled: Bool {
        #if DEBUG
        return true
        #else
        return false
        #endif
    }

    /// The number of Tether subscription objects alive now; always zero in release builds.
    public static var liveCount: Int {
        #if DEBUG
        return book.withLock { $0.records.count }
        #else
        return 0
        #endif
    }

    /// The live subscription objects, oldest first; always empty in release builds.
    /// - Returns: One entry per live object, with its chain and, when recorded, where it was made.
    public static func snapshot() -> [Entry] {
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
    public static func snapshot(in scope: Scope) -> [Entry] {
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
    public static func snapshot(since serial: UInt64) -> [Entry] {
        #if DEBUG
        let records = book.withLock { book in book.records.values.filter { $0.serial > serial } }
        return records.sorted { $0.serial < $1.serial }.map(Entry.init)
        #else
        return []
        #endif
    }

    /// The serial number of the last object that entered the ledger; zero in release builds.
    public static var currentSerial: UInt64 {
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
    public static func withScope<R>(_ body: (Scope) throws -> R) rethrows -> R {
        #if DEBUG
        let scope = Scope(id: book.withLock { book in
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
    public static func withScope<R>(
        isolation: isolated (any Actor)? = #isolation, _ body: (Scope) async throws -> R
    ) async rethrows -> R {
        #if DEBUG
        let scope = Scope(id: book.withLock { book in
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

    /// Records that `object` is gone. Called from the deinitialisers of subscription objects.
    @inlinable
    package static func leave(_ object: AnyObject) {
        #if DEBUG
        unregister(ObjectIdentifier(object))
        #endif
    }

    #if DEBUG
    @usableFromInline
    internal static func unregister(_ id: ObjectIdentifier) {
        _ = book.withLock { $0.records.removeValue(forKey: id) }
    }

    @usableFromInline
    internal static func register(_ id: ObjectIdentifier, _ type: any AnyObject.Type) {
        let scope = currentScope
        book.withLock { book in
            book.records[id] = Record(type: type, serial: book.nextSerial, scope: scope, origin: nil)
            book.nextSerial += 1
        }
    }

    /// Records where `subscriber` was attached to `publisher`, replacing any earlier origin.
    /// Called by the entry points (`sink`, `assign`) before they subscribe.
    @usableFromInline
    internal static func noteOrigin<P: Publisher>(
        _ subscriber: AnyObject, publisher: P, file: StaticString, line: UInt
    ) {
        let origin = Origin(chain: chainTypes(of: publisher), file: file, line: line)
        let id = ObjectIdentifier(subscriber)
        book.withLock { book in book.records[id]?.origin = origin }
    }

    /// Records where a Tether subscriber object was attached by a `subscribe(_:)` call from
    /// outside Tether, unless it already knows; ignores other subscribers.
    @usableFromInline
    internal static func noteSubscribe<P: Publisher, S: Subscriber>(
        _ subscriber: S, publisher: P, file: StaticString, line: UInt
    ) {
        guard !isInsideTether(file), Swift.type(of: subscriber) is AnyObject.Type else { return }
        let object = subscriber as AnyObject
        let id = ObjectIdentifier(object)
        let unknown = book.withLock { book in book.records[id].map { $0.origin == nil } ?? false }
        if unknown {
            noteOrigin(object, publisher: publisher, file: file, line: line)
        }
    }

    private static func isInsideTether(_ file: StaticString) -> Bool {
        guard file.hasPointerRepresentation else { return false }
        let prefix = Array("TetherCore/".utf8)
        guard file.utf8CodeUnitCount >= prefix.count else { return false }
        let bytes = UnsafeBufferPointer(start: file.utf8Start, count: prefix.count)
        return bytes.elementsEqual(prefix)
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

