/// The subscription behind Tether's own failover operators (`switchIfEmpty`, the delayed
/// retry): one downstream subscription over a succession of sources. Combine's `catch`,
/// `tryCatch` and `retry` keep Combine's own accounting instead (``CatchSubscription``,
/// ``Publishers/Retry``).
///
/// The first source is the upstream. When a source fails, the operator asks the relay for its
/// `Recovery` (the handler, or the upstream to subscribe again) and attaches the next source;
/// the relay hands that source the downstream demand the failed one left unmet, and forwards
/// later requests to it. The downstream sees one subscription, one stream of values and one
/// completion.
///
/// The stream's decisions are made by a ``FailoverState`` under the lock. Demand is accounted
/// without a lock on the per-value path: each source's `outstanding` demand (what it was asked
/// for) lives in that state, while the values it delivered and the
/// demand the downstream returned for them are counted on the serial signal path, and folded in
/// only when the source fails. The downstream and the recovery are released through a
/// ``ReleaseHandOff`` as soon as the stream ends, on whichever side ends it.
///
/// Before the first source's subscription, as in Combine, a value traps; a completion is
/// ignored; a source failure finds no recovery (`recovery()` answers `nil`), and a request is
/// ignored.
@usableFromInline
package final class FailoverSubscription<Downstream: Subscriber, Recovery>: Subscription,
    CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
{
    /// What the serial path needs; `nil` once released.
    @usableFromInline
    package struct Owned {
        @usableFromInline package let downstream: Downstream
        @usableFromInline package let recovery: Recovery

        @inlinable
        package init(downstream: Downstream, recovery: Recovery) {
            self.downstream = downstream
            self.recovery = recovery
        }
    }

    @usableFromInline
    package let state: Locked<FailoverState>

    @usableFromInline
    package let handOff = ReleaseHandOff()

    /// Read and written only on the serial path, or by the side the hand-off names.
    @usableFromInline
    @exclusivity(unchecked)
    package var owned: Owned?

    /// The current source's delivered values; serial path only.
    @usableFromInline
    @exclusivity(unchecked)
    package var delivered = 0

    /// The demand the downstream returned for them; serial path only.
    @usableFromInline
    @exclusivity(unchecked)
    package var returned = Subscribers.Demand.none

    /// Whether the current source has delivered a value; serial path only. For the operators built
    /// on this subscription in other modules: there a direct read of `delivered` is checked for
    /// exclusivity at run time (the attribute does not reach code compiled in another module),
    /// while this body is compiled here.
    @inlinable
    package var hasDelivered: Bool { delivered > 0 }

    @usableFromInline
    package let name: StaticString

    @inlinable
    package init(
        name: StaticString, downstream: Downstream, recovery: Recovery
    ) {
        self.name = name
        owned = Owned(downstream: downstream, recovery: recovery)
        state = Locked(FailoverState())
        Ledger.enter(self)
    }

    deinit {
        Ledger.leave(self)
    }

    // MARK: Serial path

    /// A source's subscription: the first goes downstream; later ones get the unmet demand.
    @inlinable
    package func attach(_ subscription: any Subscription) {
        switch state.withLock({ $0.attach(subscription) }) {
        case .refuse:
            subscription.cancel()
        case .first:
            // Nobody can have stopped the stream yet: the downstream has not seen the relay.
            handOff.open()
            if let downstream = owned?.downstream {
                downstream.receive(subscription: self)
            }
            if handOff.leave() {
                owned = nil
            }
        case .next(let initial):
            if initial > 0 {
                subscription.request(initial)
            }
        }
    }

    @inlinable
    package func relay(_ input: Downstream.Input) -> Subscribers.Demand {
        guard handOff.enter(name), let owned else { return .none }
        let more = owned.downstream.receive(input)
        delivered += 1
        returned += more
        if handOff.leave() {
            self.owned = nil
            return .none
        }
        return more
    }

    /// Ends the stream with `completion`, unless the downstream cancelled first or the first
    /// source has not subscribed yet.
    @inlinable
    package func finish(_ completion: Subscribers.Completion<Downstream.Failure>) {
        guard state.withLock({ $0.finish() }) else { return }
        handOff.stopFromSerialPath()
        let released = owned
        owned = nil
        released?.downstream.receive(completion: completion)
    }

    /// A source failed: the recovery to use, or `nil` when the downstream has cancelled or the
    /// first source has not subscribed yet.
    @inlinable
    package func recovery() -> Recovery? {
        guard handOff.enterIfSubscribed(), let owned else { return nil }
        let recovery = owned.recovery
        if handOff.leave() {
            self.owned = nil
            return nil
        }
        return recovery
    }

    /// Folds the failed source's unmet demand over to the next one; `false` when the stream is
    /// over and nothing must be subscribed.
    @inlinable
    package func beginSwitch() -> Bool {
        // Serial path: the failed source's counts start again from nothing for the next one.
        let (used, extra) = (delivered, returned)
        delivered = 0
        returned = .none
        return state.withLock { $0.beginSwitch(used: used, returned: extra) }
    }

    // MARK: Downstream

    @inlinable
    package func request(_ demand: Subscribers.Demand) {
        precondition(demand > 0, "Demand must not be zero: \(name) was asked for .none")
        let source = state.withLock { $0.request(demand) }
        source?.request(demand)
    }

    @inlinable
    package func cancel() {
        guard case .stop(let source) = state.withLock({ $0.cancel() }) else { return }
        if handOff.stopFromOutside() { owned = nil }
        source?.cancel()
    }

    @usableFromInline
    package var description: String { "\(name)" }

    /// No children: the downstream belongs to the serial path and cannot be read from here.
    @usableFromInline
    package var customMirror: Mirror { Mirror(self, children: [:]) }

    @usableFromInline
    package var playgroundDescription: Any { description }
}
