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

    /// Sorted; holes keep their index until a compaction.
    @usableFromInline var indexes: ContiguousArray<Int> = []
    @usableFromInline var flags: ContiguousArray<Flags> = []
    /// `nil` until the inner hands over its subscription, and for holes.
    @usableFromInline var subscriptionSlots: ContiguousArray<(any Subscription)?> = []

    /// How many inners are held.
    @usableFromInline var count = 0

    @inlinable
    init() {}

    @inlinable
    var isEmpty: Bool { count == 0 }

    /// Holds a new inner; `index` must be newer than every index held so far.
    @inlinable
    mutating func add(_ index: Int, immediate: Bool = false) {
        precondition(index > indexes.last ?? .min, "FlattenInners: indices are added in increasing order")
        indexes.append(index)
        flags.append(immediate ? [.held, .immediate] : .held)
        subscriptionSlots.append(nil)
        count += 1
    }

    /// The inner's flags, or `nil` when it is not held.
    @inlinable
    func flags(of index: Int) -> Flags? {
        position(of: index).map { flags[$0] }
    }

    @inlinable
    func isImmediate(_ index: Int) -> Bool {
        flags(of: index)?.contains(.immediate) == true
    }

    @inlinable
    mutating func markUnlimited(_ index: Int) {
        guard let position = position(of: index) else { return }
        flags[position].insert(.unlimited)
    }

    /// Marks every held inner that has its subscription and was not asked for `.unlimited` yet.
    /// - Returns: Those inners' subscriptions, oldest first, to ask for `.unlimited`.
    @inlinable
    mutating func markAllUnlimited() -> [any Subscription] {
        var marked: [any Subscription] = []
        for position in indexes.indices where flags[position].contains(.held) {
            guard !flags[position].contains(.unlimited), let subscription = subscriptionSlots[position] else {
                continue
            }
            flags[position].insert(.unlimited)
            marked.append(subscription)
        }
        return marked
    }

    /// The inner's subscription, if it is held and has handed it over.
    @inlinable
    func subscription(_ index: Int) -> (any Subscription)? {
        guard let position = position(of: index) else { return nil }
        return subscriptionSlots[position]
    }

    /// Keeps the subscription an inner handed over.
    /// - Returns: `false`, keeping nothing, when the inner is not held or has a subscription
    ///   already.
    @inlinable
    mutating func attach(_ subscription: any Subscription, at index: Int, unlimited: Bool) -> Bool {
        guard let position = position(of: index), !flags[position].contains(.attached) else { return false }
        subscriptionSlots[position] = subscription
        flags[position].insert(unlimited ? [.attached, .unlimited] : .attached)
        return true
    }

    /// Lets go of an inner, if it is held.
    @inlinable
    mutating func remove(_ index: Int) {
        guard let position = position(of: index) else { return }
        count -= 1
        if count == 0 {
            removeAll()
            return
        }
        flags[position] = []
        subscriptionSlots[position] = nil
        if indexes.count - count > max(count, 8) {
            compact()
        }
    }

    /// The subscriptions of the inners held that have one, oldest first.
    @inlinable
    var subscriptions: [any Subscription] {
        subscriptionSlots.compactMap { $0 }
    }

    @inlinable
    mutating func removeAll() {
        // One entry is the usual case (an inner at a time): `removeLast()` drops it in place,
        // where `removeAll(keepingCapacity:)` goes through the arrays' generic range replacement
        // (about 130 instructions an array).
        if indexes.count == 1 {
            indexes.removeLast()
            flags.removeLast()
            subscriptionSlots.removeLast()
        } else {
            indexes.removeAll(keepingCapacity: true)
            flags.removeAll(keepingCapacity: true)
            subscriptionSlots.removeAll(keepingCapacity: true)
        }
        count = 0
    }

    /// Where the inner at `index` sits, if it is held.
    @inlinable
    func position(of index: Int) -> Int? {
        guard let last = indexes.last else { return nil }
        var position = indexes.count - 1
        if last != index {
            var low = 0
            while low < position {
                let middle = (low + position) / 2
                if indexes[middle] < index { low = middle + 1 } else { position = middle }
            }
            guard indexes[position] == index else { return nil }
        }
        return flags[position].contains(.held) ? position : nil
    }

    /// Drops the holes, keeping the order.
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
