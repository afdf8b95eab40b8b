/// The state every subject shares: its subscriptions, its completion and its upstreams.
///
/// Methods run under the subject's lock and call nothing; what they return is performed after
/// the lock is released.
///
/// Every stored property has the same layout whatever `Output` and `Failure` are (the
/// completion is kept type-erased), so a subject's `deinit`, which runs unspecialised, destroys
/// a hub without looking up any type at run time.
@usableFromInline
package struct SubjectHub<Output, Failure: Error> {
    @usableFromInline
    package typealias Entry = SubjectEntry<Output, Failure>

    @usableFromInline package var conduits = SubjectReceivers<Output, Failure>()
    @usableFromInline package var outcome: SubjectOutcome?
    /// Subscriptions received through `send(subscription:)`.
    @usableFromInline package var upstreams: [any Subscription] = []
    /// Set once any subscriber has asked for a value: upstreams are then asked for `.unlimited`.
    @usableFromInline package var hasDownstreamDemand = false

    @inlinable
    package init() {}

    /// How the subject finished, once it has.
    @inlinable
    package var completion: Subscribers.Completion<Failure>? {
        outcome?.completion()
    }

    @inlinable
    package var isCompleted: Bool { outcome != nil }

    /// The conduits to offer a value to: none once completed. The one way a send copies them out
    /// of the lock: a read of the stored `conduits` in a published property's `send` was, in one
    /// binary, a copy through the run time's value witnesses (about 300 instructions, where this
    /// is a load and a retain; see Docs/FastWithoutTheSpecialiser.md).
    @inlinable
    package var receivers: SubjectReceivers<Output, Failure> {
        isCompleted ? SubjectReceivers() : conduits
    }

    /// Adds a conduit, or returns the completion it must be told of instead.
    @inlinable
    package mutating func attach(_ conduit: consuming Entry) -> Subscribers.Completion<Failure>? {
        if isCompleted { return completion }
        conduits.append(conduit)
        return nil
    }

    /// Removes a conduit, returning it so that it is released outside the lock.
    @inlinable
    package mutating func detach(_ conduit: AnyObject) -> Entry? {
        conduits.remove(conduit)
    }

    /// Records the completion; returns the conduits to finish.
    ///
    /// The upstreams stay, as in Combine (observed against Apple's Combine in CombineX's
    /// `PassthroughSubjectSpec`): the subject keeps them until it is deinitialised and cancels
    /// them then, so an upstream still running when the subject was finished by hand (a timer,
    /// a request) is cancelled when the subject goes rather than left running.
    @inlinable
    package mutating func complete(_ completion: Subscribers.Completion<Failure>) -> SubjectReceivers<Output, Failure>?
    {
        guard !isCompleted else { return nil }
        outcome = SubjectOutcome(completion)
        defer { conduits = SubjectReceivers() }
        return conduits
    }

    /// Keeps an upstream subscription; `true` when it must be asked for `.unlimited` now.
    @inlinable
    package mutating func receive(upstream: any Subscription) -> Bool {
        upstreams.append(upstream)
        return hasDownstreamDemand
    }

    /// Records the first downstream demand; returns the upstreams to ask for `.unlimited`.
    @inlinable
    package mutating func acknowledgeDownstreamDemand() -> [any Subscription] {
        guard !hasDownstreamDemand else { return [] }
        hasDownstreamDemand = true
        return upstreams
    }
}

/// A subject's subscriptions, in the order they attached. A lone subscription is held inline, so
/// that a subject with one subscriber keeps no storage on the heap for it (and a `send` to it
/// copies no array); from the second on, all of them are in the array, so that a `send` copies
/// one reference, the array's, however many there are (the first held inline beside the array
/// was a second retain and release a send: ten sinks, 173 → 164 ns a send in a profiling loop).
/// The array not in use is `nil`, not empty: a copy of an empty array still calls the run time to
/// retain and release the shared empty storage (about 30 instructions a send to one subscriber),
/// where a copy of `nil` calls nothing.
///
/// Invariant: `single` and `many` are never both in use, and `many` is `nil` or holds two
/// entries or more.
@usableFromInline
package struct SubjectReceivers<Output, Failure: Error>: Sequence {
    @usableFromInline package var single: SubjectEntry<Output, Failure>?
    @usableFromInline package var many: ContiguousArray<SubjectEntry<Output, Failure>>?

    @inlinable
    package init() {}

    /// A copy of `other`, field by field: how a list kept on its own in a lock is copied out of
    /// it. Returned whole from the lock's closure (`withLock { $0 }`), `objectWillChange`'s list
    /// was copied and destroyed through the run time's value witnesses, about 350 instructions a
    /// send where this is a load and a retain (see Docs/FastWithoutTheSpecialiser.md, "Copies the
    /// compiler makes through value witnesses").
    @inlinable
    package init(copying other: SubjectReceivers) {
        single = other.single
        many = other.many
    }

    @inlinable
    package mutating func append(_ entry: consuming SubjectEntry<Output, Failure>) {
        if let lone = single {
            single = nil
            many = [lone, entry]
        } else if many == nil {
            single = entry
        } else {
            many!.append(entry)
        }
    }

    /// Removes the entry of `conduit`, if it is there, and returns it.
    @inlinable
    package mutating func remove(_ conduit: AnyObject) -> SubjectEntry<Output, Failure>? {
        if let lone = single {
            guard lone.conduit === conduit else { return nil }
            single = nil
            return lone
        }
        // Taken out while it changes, so that it is uniquely held and changes in place. A plain
        // loop: this runs unspecialised (from `cancel()` through `any Subscription`), where
        // `firstIndex(where:)` would box its closure.
        guard var list = many.take() else { return nil }
        var index = list.startIndex
        while index < list.endIndex {
            if list[index].conduit === conduit {
                let removed = list.remove(at: index)
                if list.count == 1 {
                    single = list.removeLast()
                } else {
                    many = list
                }
                return removed
            }
            index += 1
        }
        many = list
        return nil
    }

    /// Offers `value` to every subscription, in the order they attached: the loop of every
    /// subject's send, on the receivers it copied out of its lock. Each entry is called where it
    /// is, through optional chaining and the array's own storage, so a send retains nothing beyond
    /// that copy. Binding the lone entry (`guard let single`), or iterating the receivers as a
    /// `Sequence`, copied entries again: a retain and release of a conduit each (`callgrind`, one
    /// subscriber: 7 retains a send against 5; ten subscribers: 41 against 23). So is the array
    /// reached by index through optional chaining: binding it (`if let many`) copied it, one more
    /// retain and release a send (two sinks, 372 instructions a send against 329).
    @inlinable
    package func offer(_ value: Output) {
        single?.send(value)
        let count = many?.count ?? 0
        var index = 0
        while index < count {
            many?[index].send(value)
            index += 1
        }
    }

    @inlinable
    package func makeIterator() -> Iterator {
        Iterator(self)
    }

    @usableFromInline
    package struct Iterator: IteratorProtocol {
        @usableFromInline package var single: SubjectEntry<Output, Failure>?
        @usableFromInline package var many: IndexingIterator<ContiguousArray<SubjectEntry<Output, Failure>>>

        @inlinable
        package init(_ receivers: SubjectReceivers) {
            single = receivers.single
            many = (receivers.many ?? []).makeIterator()
        }

        @inlinable
        package mutating func next() -> SubjectEntry<Output, Failure>? {
            if let entry = single {
                single = nil
                return entry
            }
            return many.next()
        }
    }
}
