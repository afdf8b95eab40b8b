/// The inner publishers of a ``FlattenState``, by index, in the order they were subscribed: for
/// each, its subscription once it arrives, whether it was asked for `.unlimited`, and whether it
/// is a `Just` taken without a subscription whose value waits in the buffer
/// (``FlattenState/immediate(_:)``), holding its place among the inners until that value is
/// delivered.
///
/// Indices are handed out in increasing order and inners finish in any order. A dictionary hashed
/// each index on every insertion, lookup and removal (about 900 instructions an inner), and moved
/// a slot holding an existential on each; here the indices, the flags and the subscriptions sit in
/// three arrays side by side, sorted by index, so a lookup touches integers only (the newest
/// inner, the one most often asked for, first; any other by binary search) and a flag changes in
/// place. A removal leaves a hole; the holes go when no inner is left, and a compaction reclaims
/// them once they outnumber the inners still held and are more than eight, so a removal costs
/// amortised O(1) and the arrays never hold much more than twice the inners.
///
/// The newest inner is held beside the arrays (``newestIndex``, ``newestFlags``,
/// ``newestSubscription``), and goes into them only when a newer one arrives while it is still
/// held. A `flatMap` whose inners finish before the next arrives (one at a time, or each finishing
/// as it is subscribed) then never touches the arrays: their appends, removals and uniqueness
/// checks cost about 250 instructions an inner.
///
/// Not generic, like the rest of the machine's parts (see ``FlattenLink``).
@usableFromInline
internal struct FlattenInners {
    @usableFromInline
    internal struct Flags: OptionSet {
        @usableFromInline let rawValue: UInt8

        @inlinable
        init(rawValue: UInt8) { self.rawValue = rawValue }

        /// The inner is still held; without it, the entry is a hole.
        @inlinable static var held: Flags { Flags(rawValue: 1) }
        /// The inner was asked for `.unlimited`: it needs no further requests.
        @inlinable static var unlimited: Flags { Flags(rawValue: 2) }
        /// A `Just` taken without a subscription, its value waiting in the buffer.
        @inlinable static var immediate: Flags { Flags(rawValue: 4) }
        /// The inner has handed over its subscription. Kept as a flag so that asking does not
        /// copy and destroy the existential in its slot (about 140 instructions an inner).
        @inlinable static var attached: Flags { Flags(rawValue: 8) }
    }

    /// The older inners, sorted by index; holes keep their index until a compaction.
    @usableFromInline var indexes: ContiguousArray<Int> = []
    @usableFromInline var flags: ContiguousArray<Flags> = []
    /// The inner's subscription once it has handed it over (``Flags/attached``); until then, and
    /// for holes, an ``UnattachedSubscription``. Not optional: assigning or dropping an optional
    /// existential went through `Optional`'s run-time value witnesses, with a metadata lookup
    /// (about 220 instructions an inner), where a plain existential is destroyed directly.
    @usableFromInline var subscriptionSlots: ContiguousArray<any Subscription> = []

    /// The newest inner, newer than every one in the arrays, when its flags say it is held. Its
    /// subscription slot holds an ``UnattachedSubscription`` whenever it is not attached.
    @usableFromInline var newestIndex = 0
    @usableFromInline var newestFlags: Flags = []
    @usableFromInline var newestSubscription: any Subscription = UnattachedSubscription()

    /// How many inners are held.
    @usableFromInline var count = 0

    @inlinable
    init() {}

    @inlinable
    var isEmpty: Bool { count == 0 }

    /// Holds a new inner; `index` must be newer than every index held so far.
    @inlinable
    mutating func add(_ index: Int, immediate: Bool = false) {
        if newestFlags.contains(.held) {
            precondition(index > newestIndex, "FlattenInners: indices are added in increasing order")
            indexes.append(newestIndex)
            flags.append(newestFlags)
            // Moved, not copied: the slot is left with a stand-in, as a slot without a held inner
            // always is.
            subscriptionSlots.append(UnattachedSubscription.take(from: &newestSubscription))
        } else {
            precondition(index > indexes.last ?? .min, "FlattenInners: indices are added in increasing order")
        }
        newestIndex = index
        newestFlags = immediate ? [.held, .immediate] : .held
        count += 1
    }

    /// The inner's flags, or `nil` when it is not held.
    @inlinable
    func flags(of index: Int) -> Flags? {
        switch slot(of: index) {
        case .newest: newestFlags
        case .older(let position): flags[position]
        case nil: nil
        }
    }

    @inlinable
    func isImmediate(_ index: Int) -> Bool {
        flags(of: index)?.contains(.immediate) == true
    }

    @inlinable
    mutating func markUnlimited(_ index: Int) {
        switch slot(of: index) {
        case .newest: newestFlags.insert(.unlimited)
        case .older(let position): flags[position].insert(.unlimited)
        case nil: break
        }
    }

    /// Marks every held inner that has its subscription and was not asked for `.unlimited` yet.
    /// - Returns: Those inners' subscriptions, oldest first, to ask for `.unlimited`.
    @inlinable
    mutating func markAllUnlimited() -> [any Subscription] {
        var marked: [any Subscription] = []
        for position in indexes.indices where Self.awaitsUnlimited(flags[position]) {
            flags[position].insert(.unlimited)
            marked.append(subscriptionSlots[position])
        }
        if Self.awaitsUnlimited(newestFlags) {
            newestFlags.insert(.unlimited)
            marked.append(newestSubscription)
        }
        return marked
    }

    /// The inner's subscription, if it is held and has handed it over.
    @inlinable
    func subscription(_ index: Int) -> (any Subscription)? {
        switch slot(of: index) {
        case .newest: newestFlags.contains(.attached) ? newestSubscription : nil
        case .older(let position): flags[position].contains(.attached) ? subscriptionSlots[position] : nil
        case nil: nil
        }
    }

    /// Keeps the subscription an inner handed over.
    /// - Returns: `false`, keeping nothing, when the inner is not held or has a subscription
    ///   already.
    @inlinable
    mutating func attach(_ subscription: any Subscription, at index: Int, unlimited: Bool) -> Bool {
        let attached: Flags = unlimited ? [.attached, .unlimited] : .attached
        switch slot(of: index) {
        case .newest:
            guard !newestFlags.contains(.attached) else { return false }
            newestSubscription = subscription
            newestFlags.insert(attached)
        case .older(let position):
            guard !flags[position].contains(.attached) else { return false }
            subscriptionSlots[position] = subscription
            flags[position].insert(attached)
        case nil:
            return false
        }
        return true
    }

    /// Lets go of an inner, if it is held.
    @inlinable
    mutating func remove(_ index: Int) {
        guard let slot = slot(of: index) else { return }
        count -= 1
        if count == 0 {
            removeAll()
            return
        }
        switch slot {
        case .newest:
            newestFlags = []
            newestSubscription = UnattachedSubscription()
        case .older(let position):
            flags[position] = []
            subscriptionSlots[position] = UnattachedSubscription()
            let olderHeld = newestFlags.contains(.held) ? count - 1 : count
            if indexes.count - olderHeld > max(count, 8) {
                compact()
            }
        }
    }

    /// The subscriptions of the inners held that have one, oldest first.
    @inlinable
    var subscriptions: [any Subscription] {
        var held = indexes.indices.compactMap { flags[$0].contains(.attached) ? subscriptionSlots[$0] : nil }
        if newestFlags.contains(.attached) { held.append(newestSubscription) }
        return held
    }

    @inlinable
    mutating func removeAll() {
        newestFlags = []
        newestSubscription = UnattachedSubscription()
        count = 0
        guard !indexes.isEmpty else { return }
        // One entry is a usual case (an inner finishing while a newer one runs): `removeLast()`
        // drops it in place, where `removeAll(keepingCapacity:)` goes through the arrays' generic
        // range replacement (about 130 instructions an array).
        if indexes.count == 1 {
            indexes.removeLast()
            flags.removeLast()
            subscriptionSlots.removeLast()
        } else {
            indexes.removeAll(keepingCapacity: true)
            flags.removeAll(keepingCapacity: true)
            subscriptionSlots.removeAll(keepingCapacity: true)
        }
    }

    /// Where an inner is held: the newest, or at a position in the arrays.
    @usableFromInline
    internal enum Slot {
        case newest
        case older(Int)
    }

    /// Where the inner at `index` sits, if it is held.
    @inlinable
    func slot(of index: Int) -> Slot? {
        if newestFlags.contains(.held), index == newestIndex { return .newest }
        guard let last = indexes.last, index <= last else { return nil }
        var position = indexes.count - 1
        if last != index {
            var low = 0
            while low < position {
                let middle = (low + position) / 2
                if indexes[middle] < index { low = middle + 1 } else { position = middle }
            }
            guard indexes[position] == index else { return nil }
        }
        return flags[position].contains(.held) ? .older(position) : nil
    }

    /// Whether an inner's flags say it has its subscription and has not been asked for
    /// `.unlimited` yet.
    @inlinable
    static func awaitsUnlimited(_ flags: Flags) -> Bool {
        flags.contains(.attached) && !flags.contains(.unlimited)
    }

    /// Drops the holes among the older inners, keeping the order.
    @inlinable
    mutating func compact() {
        var kept = 0
        for position in indexes.indices where flags[position].contains(.held) {
            if kept != position {
                indexes[kept] = indexes[position]
                flags[kept] = flags[position]
                subscriptionSlots.swapAt(kept, position)
            }
            kept += 1
        }
        indexes.removeLast(indexes.count - kept)
        flags.removeLast(flags.count - kept)
        subscriptionSlots.removeLast(subscriptionSlots.count - kept)
    }
}
