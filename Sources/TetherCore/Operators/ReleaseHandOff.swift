import Synchronization

/// Decides who releases an operator's serial-path state, without a lock on the per-element path.
///
/// An operator that is its own subscription keeps what its upstream's signals need (the
/// downstream, the user's closures) in a plain stored property. Only the upstream's serial signal
/// path reads it, and it must be released as soon as the stream ends, either on that path (a
/// completion, a thrown error) or from the downstream's thread (`cancel`). The gate tells the
/// two sides apart with three bits:
///
/// - `subscribed`: the upstream's subscription was accepted, so values are legal.
/// - `delivering`: the serial path is inside a signal and owns the state.
/// - `stopped`: the stream has ended; the serial path must not touch the state again.
///
/// A stop from outside that finds `delivering` clear releases the state itself; one that finds
/// it set leaves the release to the serial path, which sees `stopped` when it leaves. Exactly one
/// side releases, and the per-element cost is two atomic read-modify-writes.
///
/// Which side *ends* the stream is decided elsewhere, under the operator's `Locked` state; the
/// gate only hands the stored state over.
@usableFromInline
package struct ReleaseHandOff: ~Copyable, Sendable {
    @usableFromInline static package var subscribed: UInt8 { 1 }
    @usableFromInline static package var delivering: UInt8 { 2 }
    @usableFromInline static package var stopped: UInt8 { 4 }

    @usableFromInline
    package let bits = Atomic<UInt8>(0)

    @inlinable
    package init() {}

    /// Serial path: the subscription was accepted and is about to be handed downstream, which is
    /// a delivery like any other (the downstream may cancel from inside it).
    @inlinable
    package func open() {
        bits.bitwiseOr(Self.subscribed | Self.delivering, ordering: .acquiringAndReleasing)
    }

    /// Serial path, before a value.
    /// - Parameter name: The operator, for the trap on a value that precedes the subscription.
    /// - Returns: `false` once the stream has stopped; the caller must then leave the state alone.
    @inlinable
    package func enter(_ name: StaticString) -> Bool {
        let old = bits.bitwiseOr(Self.delivering, ordering: .acquiringAndReleasing).oldValue
        precondition(
            old & Self.subscribed != 0,
            "A publisher must send the subscription before any value: \(name) received a value first")
        return old & Self.stopped == 0
    }

    /// Serial path, before a value, for an operator that ignores a value arriving before the
    /// subscription (as Combine's reducers do) instead of trapping.
    /// - Returns: `false` before the subscription and once the stream has stopped; the caller
    ///   must then leave the state alone.
    @inlinable
    internal func enterIfSubscribed() -> Bool {
        let old = bits.bitwiseOr(Self.delivering, ordering: .acquiringAndReleasing).oldValue
        guard old & Self.subscribed != 0 else {
            // Nothing else delivers before the subscription, so the bit was clear: clear it again.
            bits.bitwiseAnd(~Self.delivering, ordering: .acquiringAndReleasing)
            return false
        }
        return old & Self.stopped == 0
    }

    /// Serial path, before a value, for an operator that delivers a value arriving before the
    /// subscription (as some of Combine's do): nothing but the serial path can have touched the
    /// state before the subscription, so it is the serial path's.
    /// - Returns: `false` once the stream has stopped; the caller must then leave the state alone.
    @inlinable
    internal func enterEvenBeforeSubscription() -> Bool {
        bits.bitwiseOr(Self.delivering, ordering: .acquiringAndReleasing).oldValue & Self.stopped == 0
    }

    /// Serial path, after a delivery that `enter` or `open` began.
    /// - Returns: `true` when the stream stopped meanwhile; the caller must release the state.
    @inlinable
    package func leave() -> Bool {
        let old = bits.bitwiseAnd(~Self.delivering, ordering: .acquiringAndReleasing).oldValue
        return old & Self.stopped != 0
    }

    /// Serial path, ending the stream itself: the caller releases the state.
    @inlinable
    package func stopFromSerialPath() {
        bits.bitwiseOr(Self.stopped, ordering: .acquiringAndReleasing)
    }

    /// Downstream side, ending the stream (`cancel`).
    /// - Returns: `true` when no delivery is in flight and the caller must release the state;
    ///   `false` when the delivery in flight will release it as it leaves.
    @inlinable
    package func stopFromOutside() -> Bool {
        let old = bits.bitwiseOr(Self.stopped, ordering: .acquiringAndReleasing).oldValue
        return old & Self.delivering == 0
    }
}
