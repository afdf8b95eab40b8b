import Synchronization

/// A debug-build ledger of the subscription objects that are alive right now.
///
/// Every subscription and subscriber object that Tether creates enters the ledger when it is made
/// and leaves it when it is deallocated. A test that ends with a non-empty ledger has leaked a
/// subscription: something still holds a chain that should have been released by completion or
/// cancellation. In release builds the ledger is compiled out: ``liveCount`` is always zero.
public enum SubscriptionLedger {
    #if DEBUG
    @usableFromInline
    internal static let entries = Mutex<[ObjectIdentifier: any AnyObject.Type]>([:])
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
        return entries.withLock { $0.count }
        #else
        return 0
        #endif
    }

    /// The type names of the live subscription objects, sorted, one entry per object.
    public static func snapshot() -> [String] {
        #if DEBUG
        let types = entries.withLock { Array($0.values) }
        return types.map { String(describing: $0) }.sorted()
        #else
        return []
        #endif
    }

    /// Records that `object` is alive. Called from the initialisers of subscription objects.
    @inlinable
    package static func enter(_ object: AnyObject) {
        #if DEBUG
        let id = ObjectIdentifier(object)
        let type: any AnyObject.Type = Swift.type(of: object)
        entries.withLock { $0[id] = type }
        #endif
    }

    /// Records that `object` is gone. Called from the deinitialisers of subscription objects.
    @inlinable
    package static func leave(_ object: AnyObject) {
        #if DEBUG
        let id = ObjectIdentifier(object)
        _ = entries.withLock { $0.removeValue(forKey: id) }
        #endif
    }
}
