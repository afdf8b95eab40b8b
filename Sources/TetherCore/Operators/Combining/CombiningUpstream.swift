/// One upstream of a merge, zip or combine-latest: its subscription, where it stands, and for a
/// zip or combine-latest what the slots hold of it.
///
/// The status is kept apart from the subscription so that the check every value makes reads a
/// byte, where switching over an enum carrying the `any Subscription` copied the existential.
/// The fields are flat for the same reason: reading a field of a struct nested in an array
/// element copied the whole element.
@usableFromInline
package struct CombiningUpstream {
    @usableFromInline
    package enum Link {
        case awaitingSubscription
        case active
        /// Completed, or let go of when the stream ended.
        case done

        /// Whether a value or the completion from this upstream counts: not once it has ended.
        ///
        /// One that comes before the subscription counts: nothing recorded against Combine traps
        /// on it in `merge`, `zip` or `combineLatest` (OpenCombine's `zip` takes it too), and a
        /// publisher can complete while it is still handing its subscription over (a subject
        /// completed from another thread, in libraries that attach first and hand over after).
        /// Such a completion ends the upstream, so the subscription that follows is cancelled
        /// (``attach(_:)``). Asked of the status, not of the link, so that asking copies no
        /// subscription.
        @inlinable
        package var accepts: Bool {
            switch self {
            case .awaitingSubscription, .active: true
            case .done: false
            }
        }
    }

    @usableFromInline package var status = Link.awaitingSubscription
    /// Held while ``status`` is `active`; an ``UnattachedSubscription`` otherwise, never an
    /// optional, which would be written and dropped through `Optional`'s run-time value witnesses.
    @usableFromInline package var subscription: any Subscription = UnattachedSubscription()
    /// How many of its values the slots hold: zip's queue length; for combine-latest, 1 once it
    /// has produced a value. A merge does not count.
    @usableFromInline package var held = 0
    /// It finished (a zip may still pair its queued values). A merge does not look.
    @usableFromInline package var finished = false

    @inlinable
    package init() {}

    /// Keeps `subscription`, unless this upstream already has one or has ended.
    @inlinable
    package mutating func attach(_ subscription: any Subscription) -> Bool {
        guard case .awaitingSubscription = status else { return false }
        status = .active
        self.subscription = subscription
        return true
    }

    /// Ends this upstream, letting go of its subscription: it completed, or the stream is over.
    @inlinable
    package mutating func end() {
        status = .done
        subscription = UnattachedSubscription()
    }

    /// Ends this upstream, as ``end()`` does.
    /// - Returns: Its subscription, moved out, if it had one, for the caller to cancel.
    @inlinable
    package mutating func endTakingSubscription() -> (any Subscription)? {
        defer { status = .done }
        guard case .active = status else { return nil }
        return UnattachedSubscription.take(from: &subscription)
    }
}

extension [CombiningUpstream] {
    // Read through the buffer, a field at a time: iterating the upstreams (`for upstream in
    // upstreams`, `compactMap(\.subscription)`, `reduce`), or reading a field of `self[index]`,
    // copies each one whole through an outlined copy, its subscription retained and released
    // through the run time's value witnesses.

    /// The subscriptions of the upstreams that have one, in order.
    @inlinable
    package var subscriptions: [any Subscription] {
        withUnsafeBufferPointer { upstreams in
            var subscriptions: [any Subscription] = []
            for index in upstreams.indices {
                if case .active = upstreams[index].status {
                    subscriptions.append(upstreams[index].subscription)
                }
            }
            return subscriptions
        }
    }

    /// How many of the upstreams before `index` have a subscription: an upstream's position among
    /// ``subscriptions``.
    @inlinable
    package func subscribedCount(before index: Int) -> Int {
        withUnsafeBufferPointer { upstreams in
            // An upstream has its subscription exactly while it is active.
            var count = 0
            for position in 0..<index {
                if case .active = upstreams[position].status { count += 1 }
            }
            return count
        }
    }

    /// Whether every upstream has ended.
    @inlinable
    package var allDone: Bool {
        withUnsafeBufferPointer { upstreams in
            for index in upstreams.indices {
                if case .done = upstreams[index].status { continue }
                return false
            }
            return true
        }
    }
}
