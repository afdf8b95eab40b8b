import Synchronization

/// Where the default `objectWillChange` publisher of each ``ObservableObject`` lives.
///
/// A protocol extension cannot add a stored property, and Linux has no associated objects.
/// Combine (and OpenCombine) therefore find the publisher by walking the object's fields with
/// reflection on every access, which costs microseconds and several allocations each time.
/// Tether keeps the publishers in a side table instead:
///
/// - **Lookup.** The table maps `ObjectIdentifier(object)` to the object's publisher. The first
///   access to `objectWillChange` creates the publisher and the entry; every later one is a
///   lock and a hash lookup: O(1), no allocation, no reflection, no weak load. The key hashes
///   the address with a bit mixer rather than SipHash (``Key``).
/// - **Identity.** An identifier is an address, which a new object could take over once the
///   old one is freed. Each publisher the table keeps therefore holds an `unowned` reference to
///   its object (``ObservableObjectPublisher/pin``): that keeps the object's memory allocated
///   after it is deinitialised (it does not keep the object alive), so while an entry exists no
///   other object can have its identifier, and a lookup needs no liveness check. The caller is
///   always the live object itself, or one of its `@Published` properties.
/// - **Cleanup.** Each such publisher also holds its object weakly
///   (``ObservableObjectPublisher/registeredObject``), which reads `nil` once the object has
///   begun to deinitialise. The two references live in the publisher rather than in an entry
///   object of the table's, which would be one more allocation for every object observed.
///   Entries whose object is gone are swept whenever the table has doubled since the last
///   sweep, which keeps insertion amortised O(1) and bounds what dead objects leave behind
///   (their publisher and the bare allocation) to about the live size.
///   The subject behind a `@Published` property's `$` publisher removes its owner's entry when
///   it is deallocated together with the owner, so most observed objects let go at once.
/// - **@Published.** A setter asks ``existingPublisher(for:)`` only while it has not yet found
///   the publisher, then caches it in the property's storage (from then on the object owns its
///   publisher, as in Combine); a property's subject, made for its `$` publisher, asks once when
///   it is made and, if the publisher is not there yet, on its sends until it is. Nothing is
///   created for objects nobody observes, and while the table is empty the question costs one
///   relaxed atomic load. A property of an object that is not an ``ObservableObject`` never
///   asks.
/// - **Concurrency.** All table access happens under one lock whose bodies call nothing;
///   entries dropped by a sweep are released after the lock is let go.
@usableFromInline
internal enum ObservableObjectRegistry {
    /// `@unchecked`: its publishers hold objects weakly, and it lives only in ``table``, touched
    /// only under that lock.
    internal struct Table: @unchecked Sendable {
        var entries: [Key: ObservableObjectPublisher] = [:]
        /// The size at which the next insertion sweeps dead entries.
        var sweepThreshold = Table.minimumSweepThreshold

        static let minimumSweepThreshold = 64

        /// Removes the entries whose object is gone, returning them to be released later.
        mutating func sweep() -> [ObservableObjectPublisher] {
            var dead: [ObservableObjectPublisher] = []
            entries = entries.filter { _, publisher in
                if publisher.registeredObject != nil { return true }
                dead.append(publisher)
                return false
            }
            sweepThreshold = Swift.max(Table.minimumSweepThreshold, entries.count * 2)
            return dead
        }
    }

    /// An object's identifier as the table's key, hashed by mixing its address's bits rather than
    /// by the standard library's SipHash: an address is not chosen by an attacker, and every
    /// `objectWillChange` made, every first set of a published property and every property's
    /// subject let go of hashes one (SipHash was about 90 instructions of each).
    internal struct Key: Hashable {
        let id: ObjectIdentifier

        init(_ object: AnyObject) {
            id = ObjectIdentifier(object)
        }

        init(_ id: ObjectIdentifier) {
            self.id = id
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(id)
        }

        /// What `Dictionary` asks for: MurmurHash3's 64-bit finaliser of the address and the
        /// table's seed, whose low bits (the ones a bucket index takes) depend on every bit of the
        /// address, though its low four are always zero.
        func _rawHashValue(seed: Int) -> Int {
            var bits = UInt64(UInt(bitPattern: id)) ^ UInt64(UInt(bitPattern: seed))
            bits ^= bits >> 33
            bits &*= 0xff51_afd7_ed55_8ccd
            bits ^= bits >> 33
            bits &*= 0xc4ce_b9fe_1a85_ec53
            bits ^= bits >> 33
            return Int(truncatingIfNeeded: bits)
        }
    }

    internal static let table = Locked(Table())

    /// The number of entries, readable without the lock.
    internal static let entryCount = Atomic<Int>(0)

    /// The publisher of `object`, created on first use; the same instance for the object's
    /// whole life. `object` must be alive.
    @usableFromInline
    internal static func publisher(for object: AnyObject) -> ObservableObjectPublisher {
        let id = Key(object)
        let (publisher, released) = table.withLock {
            table -> (ObservableObjectPublisher, [ObservableObjectPublisher]) in
            let (publisher, made) = obtain(&table.entries[id], for: object)
            guard made else { return (publisher, []) }
            var released: [ObservableObjectPublisher] = []
            if table.entries.count >= table.sweepThreshold {
                released += table.sweep()
            }
            entryCount.store(table.entries.count, ordering: .relaxed)
            return (publisher, released)
        }
        _ = released
        return publisher
    }

    /// The publisher of `object` if its `objectWillChange` has been asked for; never creates one.
    /// `object` must be alive.
    @usableFromInline
    internal static func existingPublisher(for object: AnyObject) -> ObservableObjectPublisher? {
        guard entryCount.load(ordering: .relaxed) > 0 else { return nil }
        let id = Key(object)
        return table.withLock { $0.entries[id] }
    }

    /// Removes the entry for `id` if its object is gone; called as an owner is deallocated.
    @usableFromInline
    internal static func forgetIfDead(_ id: ObjectIdentifier) {
        guard entryCount.load(ordering: .relaxed) > 0 else { return }
        let released = table.withLock { table -> ObservableObjectPublisher? in
            defer { entryCount.store(table.entries.count, ordering: .relaxed) }
            return removeIfDead(&table.entries[Key(id)])
        }
        _ = released
    }

    /// The publisher in `slot`, or a new one put there for `object` (`made`). The table's entry
    /// is reached once, through its `inout` subscript: a lookup and then an insertion hashed the
    /// identifier twice.
    private static func obtain(
        _ slot: inout ObservableObjectPublisher?, for object: AnyObject
    ) -> (publisher: ObservableObjectPublisher, made: Bool) {
        if let publisher = slot { return (publisher, false) }
        let publisher = ObservableObjectPublisher(registeredFor: object)
        slot = publisher
        return (publisher, true)
    }

    /// Empties `slot` if its object is gone, returning the publisher to be released later; one
    /// hash, as in ``obtain(_:for:)``.
    private static func removeIfDead(_ slot: inout ObservableObjectPublisher?) -> ObservableObjectPublisher? {
        guard let publisher = slot, publisher.registeredObject == nil else { return nil }
        slot = nil
        return publisher
    }
}
