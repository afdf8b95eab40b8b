import Synchronization

/// Decides who releases an operator's serial-path state, without a lock on the per-element path.
///
/// An operator that is its own subscription keeps what its upstream's signals need (the
/// downstream, the user's closures) in a plain stored property. Only the upstream's serial signal
/// path reads it, and it must be released as soon as the stream ends, either on that path (a
/// completion, a thrown error) or from the downstream's thread (`cancel`). The hand-off tells the
/// two sides apart with one atomic word:
///
/// - `subscribed`: the upstream's subscription was accepted, so values are legal.
/// - `stopped`: the stream has ended; the serial path must not touch the state again.
/// - the deliveries in flight, counted in the bits above those two: the serial path is inside a
///   signal and owns the state. More than one is in flight when a delivery reenters (a subject
///   sent to from inside its own subscriber's `receive(_:)`), all on the serial path's thread.
///
/// A stop from outside that finds no delivery in flight releases the state itself; one that finds
/// one leaves the release to the serial path, whose outermost delivery sees `stopped` when it
/// leaves. Exactly one side releases, and the per-element cost is two atomic read-modify-writes.
///
/// Which side *ends* the stream is decided elsewhere, under the operator's `Locked` state (for
/// most, the status of an ``UpstreamLink``, the subscription kernel this hand-off is one half of);
/// the hand-off only hands the stored state over.
@usableFromInline
package struct ReleaseHandOff: ~Copyable, Sendable {
    @usableFromInline static package var subscribed: UInt32 { 1 }
    @usableFromInline static package var stopped: UInt32 { 2 }
    /// One delivery in flight.
    @usableFromInline static package var delivery: UInt32 { 4 }

    @usableFromInline
    package let bits = Atomic<UInt32>(0)

    @inlinable
    package init() {}

    /// Serial path: the subscription was accepted and is about to be handed downstream, which is
    /// a delivery like any other (the downstream may cancel from inside it). Called once.
    @inlinable
    package func open() {
        bits.wrappingAdd(Self.subscribed + Self.delivery, ordering: .acquiringAndReleasing)
    }

    /// Serial path, before a value.
    /// - Parameter name: The operator, for the trap on a value that precedes the subscription.
    /// - Returns: `false` once the stream has stopped; the caller must then leave the state alone
    ///   (and not call ``leave()``).
    @inlinable
    package func enter(_ name: StaticString) -> Bool {
        let old = bits.wrappingAdd(Self.delivery, ordering: .acquiringAndReleasing).oldValue
        Self.trapUnlessSubscribed(old, name)
        return admitted(old)
    }

    /// Traps on a value that precedes the subscription, as Combine's operators that check do.
    @inlinable
    internal static func trapUnlessSubscribed(_ bits: UInt32, _ name: StaticString) {
        precondition(
            bits & subscribed != 0,
            "A publisher must send the subscription before any value: \(name) received a value first")
    }

    /// Serial path, before a value, for an operator that ignores a value arriving before the
    /// subscription (as Combine's reducers do) instead of trapping.
    /// - Returns: `false` before the subscription and once the stream has stopped; the caller
    ///   must then leave the state alone (and not call ``leave()``).
    @inlinable
    internal func enterIfSubscribed() -> Bool {
        let old = bits.wrappingAdd(Self.delivery, ordering: .acquiringAndReleasing).oldValue
        guard old & Self.subscribed != 0 else {
            bits.wrappingSubtract(Self.delivery, ordering: .acquiringAndReleasing)
            return false
        }
        return admitted(old)
    }

    /// Serial path, before a value, for a subscriber or operator that delivers a value arriving
    /// before the subscription (as some of Combine's do): nothing but the serial path can have
    /// touched the state before the subscription, so it is the serial path's.
    /// - Returns: `false` once the stream has stopped; the caller must then leave the state alone
    ///   (and not call ``leave()``).
    @inlinable
    package func enterEvenBeforeSubscription() -> Bool {
        admitted(bits.wrappingAdd(Self.delivery, ordering: .acquiringAndReleasing).oldValue)
    }

    /// Takes back a delivery that found the stream stopped. The count cannot reach zero here with
    /// a release owed: a stop that found no delivery in flight released at once, and one that
    /// found one left the release to that outer delivery, which is still in flight.
    @inlinable
    internal func admitted(_ old: UInt32) -> Bool {
        guard old & Self.stopped != 0 else { return true }
        bits.wrappingSubtract(Self.delivery, ordering: .acquiringAndReleasing)
        return false
    }

    /// Serial path, after a delivery that `enter` or `open` began.
    /// - Returns: `true` when the stream stopped meanwhile and this was the outermost delivery;
    ///   the caller must release the state.
    @inlinable
    package func leave() -> Bool {
        let old = bits.wrappingSubtract(Self.delivery, ordering: .acquiringAndReleasing).oldValue
        return old & Self.stopped != 0 && old >> 2 == 1
    }

    /// Serial path, ending the stream itself: the caller releases the state.
    @inlinable
    package func stopFromSerialPath() {
        bits.bitwiseOr(Self.stopped, ordering: .acquiringAndReleasing)
    }

    /// Serial path, a completion that ends the stream: ``enterEvenBeforeSubscription()`` and
    /// ``stopBeneathDeliveries(entered:)`` with `entered: true`, in one atomic read-modify-write
    /// where they take two (a completion that finds the hand-off stopped is turned away, as
    /// `enter…` turns it away).
    /// - Returns: `nil` when the hand-off has stopped already: the completion is ignored. `true`
    ///   when no delivery is in flight: the caller releases the state now (its own entry stays
    ///   counted, so a later stop releases nothing). `false` when one is, beneath the caller on
    ///   this thread: the caller's entry is taken back, and the outermost delivery's ``leave()``
    ///   tells it to release the state.
    @inlinable
    package func enterToStopEvenBeforeSubscription() -> Bool? {
        var old = bits.load(ordering: .relaxed)
        while true {
            guard old & Self.stopped == 0 else { return nil }
            let (exchanged, found) = bits.compareExchange(
                expected: old, desired: (old | Self.stopped) &+ Self.delivery, ordering: .acquiringAndReleasing)
            if exchanged { break }
            old = found
        }
        if old >> 2 == 0 { return true }
        bits.wrappingSubtract(Self.delivery, ordering: .acquiringAndReleasing)
        return false
    }

    /// Serial path, ending the stream where a delivery may still be in flight beneath the caller
    /// on this thread (a publisher that completes from inside its subscriber's `receive(_:)`),
    /// for state that delivery calls where it is kept (``InPlace``): it must not be let go of
    /// under it.
    /// - Parameter entered: Whether the caller is inside a delivery that `enter…` began.
    /// - Returns: `true` when no other delivery is in flight: the caller releases the state now
    ///   (its own delivery stays counted, so a later stop releases nothing). `false` when one is:
    ///   the caller's delivery, if any, is taken back, and the outermost delivery's ``leave()``
    ///   tells it to release the state.
    @inlinable
    package func stopBeneathDeliveries(entered: Bool) -> Bool {
        let own: UInt32 = entered ? 1 : 0
        let old = bits.bitwiseOr(Self.stopped, ordering: .acquiringAndReleasing).oldValue
        if old >> 2 == own { return true }
        if entered {
            bits.wrappingSubtract(Self.delivery, ordering: .acquiringAndReleasing)
        }
        return false
    }

    /// Serial path, before a value, for an operator that keeps nothing for the hand-off to
    /// release (what it holds, it holds for its whole life, as Combine's do) and uses it only to
    /// turn away a value that comes before the subscription or after the end: a load, where
    /// `enter…` and ``leave()`` are two read-modify-writes. Such an operator does not `leave()`;
    /// after its delivery, ``hasStopped()`` says whether the stream ended meanwhile.
    /// - Returns: `true` once the subscription was accepted, until the stream stops.
    @inlinable
    internal func admitsWithoutEntering() -> Bool {
        bits.load(ordering: .acquiring) & (Self.subscribed | Self.stopped) == Self.subscribed
    }

    /// As ``admitsWithoutEntering()``, for an operator that traps on a value before the
    /// subscription, as ``enter(_:)`` does.
    /// - Parameter name: The operator, for the trap.
    /// - Returns: `true` until the stream stops.
    @inlinable
    internal func admitsWithoutEntering(_ name: StaticString) -> Bool {
        let bits = bits.load(ordering: .acquiring)
        Self.trapUnlessSubscribed(bits, name)
        return bits & Self.stopped == 0
    }

    /// Whether a `stop…` call has stopped the stream, read with a load rather than a
    /// read-modify-write; the caller knows what the side that stopped it ends besides.
    @inlinable
    package func hasStopped() -> Bool {
        bits.load(ordering: .acquiring) & Self.stopped != 0
    }

    /// Downstream side, ending the stream (`cancel`).
    /// - Returns: `true` when no delivery is in flight and the caller must release the state;
    ///   `false` when the delivery in flight will release it as it leaves.
    @inlinable
    package func stopFromOutside() -> Bool {
        bits.bitwiseOr(Self.stopped, ordering: .acquiringAndReleasing).oldValue >> 2 == 0
    }
}
