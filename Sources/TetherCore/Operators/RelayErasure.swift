/// Whether a value-type relay is too large to be handed on inline, and is erased into an
/// ``AnySubscriber`` before another relay wraps it: once it is larger than 64 bytes.
///
/// A value-type relay (`map`, `filter`, `compactMap`, …) keeps its subscriber by value, so a
/// chain's subscriber type grows by one relay per stage, and so does its size. Swift's generic
/// specialiser stops following a chain of calls whose types keep growing once it meets the same
/// function a third time (it takes the chain for an infinite "generic specialization loop"): past
/// that stage, subscribing and every value ran unspecialised, and every subscription copied the
/// growing relays through their value witnesses. Erasing stops the growth: the relay above sees
/// one small subscriber type again, every stage stays specialised, and copies stay small, for one
/// allocation per erasure and one indirect call per value at each erasure point
/// (Docs/FastWithoutTheSpecialiser.md, "Relays that stop the types growing").
///
/// Decided from the type alone, so in specialised code the test folds away. 64 bytes is about two
/// or three stages: with twelve alternating `map` and `filter` stages the specialiser follows the
/// whole chain at 64 and 96, and stops again at 128.
@inlinable @inline(__always)
internal func relayErases<Downstream: Subscriber>(_: Downstream.Type) -> Bool {
    MemoryLayout<Downstream>.size > 64
}

/// Whether a subject keeps its subscriber as an ``AnySubscriber`` rather than inline: when the
/// subscriber is larger than an `AnySubscriber` (a relay of value type, holding its own
/// subscriber and closures).
///
/// A subject's subscription delivers every value to the subscriber it keeps in a stored property,
/// and a call on a value held in a class's `var` works on a copy: a relay's copy retains and
/// releases every reference it holds (its closures' contexts, the subscriber below), through the
/// relay's value witnesses. An `AnySubscriber` keeps the relay in a `let` of its box, where calls
/// borrow it: a copy of it is one retain, for one allocation per subscription and one indirect
/// call per value.
@inlinable @inline(__always)
package func conduitErases<Downstream: Subscriber>(_: Downstream.Type) -> Bool {
    MemoryLayout<Downstream>.size > MemoryLayout<AnySubscriber<Downstream.Input, Downstream.Failure>>.size
}

extension Publisher {
    /// Subscribes `relay`, a value-type relay just made around a subscriber: erased into an
    /// ``AnySubscriber`` first when it is larger than 64 bytes (`relayErases(_:)`) and this
    /// publisher would erase it or wrap it in a relay of its own (``SubscriberErasing``).
    ///
    /// Every value-type relay's `receive(subscriber:)` subscribes its upstream through this, and
    /// is `@inline(__always)` (all but `autoconnect`'s, which also connects), so that subscribing
    /// a chain of relays runs as one function (Docs/FastWithoutTheSpecialiser.md, "Relays
    /// subscribed without copies"). The relay is erased where it is made, and handed over rather
    /// than lent (`subscribe(moving:)`; "Subscribers handed over, not lent"): the box, or the
    /// publisher it goes to, moves it in, where a copy through the relays' value witnesses, and a
    /// destruction of the original after, would be made.
    @inlinable @inline(__always)
    internal func subscribe<Relay: Subscriber>(relay: consuming Relay)
    where Relay.Input == Output, Relay.Failure == Failure {
        if relayErases(Relay.self), Self.self is any SubscriberErasing.Type {
            subscribe(moving: AnySubscriber(relay))
        } else {
            subscribe(moving: relay)
        }
    }
}

/// A publisher that keeps a large subscriber erased, or wraps it in a value-type relay that the
/// publisher above it would erase: the relays (`map`, `filter`, …), the subjects (which erase a
/// subscriber larger than an ``AnySubscriber``), and ``AnyPublisher`` (which erases every one).
/// ``Publisher/subscribe(relay:)`` erases a large relay before it reaches one of them, by moving
/// it into the box, where the publisher would have copied it.
///
/// Any other publisher (a `Sequence`, an operator whose subscription is an object) keeps the
/// subscriber it is given inline and calls it directly for every value, so the relay it is
/// handed is not erased for it. Whether a publisher conforms is settled at compile time where it
/// does (the specialised check folds); where it does not, the run time looks it up, once for
/// each subscription whose top relay is large.
@usableFromInline
internal protocol SubscriberErasing {}
