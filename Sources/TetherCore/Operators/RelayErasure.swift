/// Whether a value-type relay erases the subscriber it wraps into an ``AnySubscriber`` rather than
/// keep it inline: once the relays below it have made it larger than 64 bytes.
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
