import TetherCore

// Operators beyond Combine's catalogue composed of Combine's own operators (partition,
// withUnretained, prefix(duration:)): they add no subscription type of their own, so their
// semantics are exactly those of the composition.

extension Publisher {
    /// Splits this publisher's values into two publishers, of the values that satisfy
    /// `predicate` and of those that do not, sharing one subscription to this publisher.
    ///
    /// Composed as `map` (running `predicate` once per value) then ``Publisher/share()``, then a
    /// `compactMap` per side. As with any `share()`, this publisher is subscribed when the first
    /// side is, and a side subscribed later misses the values already sent: subscribe both
    /// sides before this publisher produces values (a synchronous publisher such as a sequence
    /// delivers everything to the first side while it subscribes). The shared subscription is
    /// cancelled once both sides have cancelled.
    ///
    /// Demand: this publisher is asked for `.unlimited` once either side has demand; each side
    /// receives only the values its subscriber has demand for, the others are dropped (the
    /// behaviour of ``Publishers/Share``). Failure type: this publisher's; completion reaches
    /// both sides. Values are delivered on the thread that delivers this publisher's values.
    /// - Parameter predicate: Decides the side of each value; it runs once per value, on the
    ///   thread that delivers it.
    /// - Returns: The publisher of matching values and the publisher of the others.
    @inlinable
    public func partition(_ predicate: @escaping (Output) -> Bool) -> (
        matching: Publishers.CompactMap<Publishers.Share<Publishers.Map<Self, (Output, Bool)>>, Output>,
        nonMatching: Publishers.CompactMap<Publishers.Share<Publishers.Map<Self, (Output, Bool)>>, Output>
    ) {
        let shared = map { ($0, predicate($0)) }.share()
        return (
            matching: shared.compactMap { value, matches in matches ? value : nil },
            nonMatching: shared.compactMap { value, matches in matches ? nil : value }
        )
    }

    /// Publishes each value combined with `object` through `resultSelector`, holding `object`
    /// only weakly; the first value that finds `object` gone finishes the stream instead.
    ///
    /// RxSwift's `withUnretained(_:resultSelector:)`. Composed as a `map` capturing `object`
    /// weakly, a `prefix(while:)` that finishes (and cancels this publisher) on the first value
    /// that found it gone, and a `map` that unwraps. Nothing in the subscription holds `object`
    /// strongly; what it publishes does (`resultSelector` usually returns `object`), so a
    /// replaying operator after this one (``Publisher/share(replay:)``) keeps `object` alive
    /// through its buffer: put `withUnretained` after the replay, not before it.
    ///
    /// Demand passes through unchanged. Failure type: this publisher's; completion passes
    /// through. Values are delivered on the thread that delivers this publisher's values.
    /// - Parameters:
    ///   - object: The object to pair each value with, held weakly.
    ///   - resultSelector: Combines `object` with a value; it runs on the thread that delivers
    ///     the value.
    /// - Returns: A publisher of the combined values that finishes once `object` is gone.
    @inlinable
    public func withUnretained<Object: AnyObject, Result>(
        _ object: Object, resultSelector: @escaping (Object, Output) -> Result
    ) -> Publishers.Map<Publishers.PrefixWhile<Publishers.Map<Self, Result?>>, Result> {
        // A captured `weak let`: a `[weak object]` capture is a variable, and every value's read
        // of it was an access the run time checked for exclusivity.
        weak let held = object
        return map { value in held.map { resultSelector($0, value) } }
            .prefix { $0 != nil }
            .map { $0! }
    }

    /// Publishes each value paired with `object`, holding `object` only weakly; the first value
    /// that finds `object` gone finishes the stream instead.
    ///
    /// RxSwift's `withUnretained(_:)`: ``withUnretained(_:resultSelector:)`` with a selector
    /// that pairs them. Demand passes through unchanged, the failure type is this publisher's,
    /// and values are delivered on the thread that delivers this publisher's values. A
    /// replaying operator after this one keeps `object` alive through its buffer.
    /// - Parameter object: The object to pair each value with, held weakly.
    /// - Returns: A publisher of `(object, value)` pairs that finishes once `object` is gone.
    @inlinable
    public func withUnretained<Object: AnyObject>(
        _ object: Object
    ) -> Publishers.Map<Publishers.PrefixWhile<Publishers.Map<Self, (Object, Output)?>>, (Object, Output)> {
        withUnretained(object) { ($0, $1) }
    }

    /// Republishes values for `duration` after subscription, then finishes.
    ///
    /// CombineExt's `prefix(duration:)`. Composed as `prefix(untilOutputFrom:)` a `Just` delayed
    /// by `duration` on `scheduler`: the clock starts when the subscription is made, and when it
    /// runs out this publisher is cancelled and the stream finishes. A completion of this
    /// publisher before then passes through.
    ///
    /// Demand passes through unchanged. Failure type: this publisher's. Values are delivered on
    /// the thread that delivers them; the finish at the end of `duration`, on `scheduler`.
    /// - Parameters:
    ///   - duration: How long to republish values.
    ///   - tolerance: The tolerance of the deadline; the scheduler's minimum by default.
    ///   - scheduler: The scheduler that measures `duration` and delivers the finish.
    ///   - options: Options for the scheduler.
    /// - Returns: A publisher of the values sent within `duration` of subscribing.
    @inlinable
    public func prefix<Context: Scheduler>(
        duration: Context.SchedulerTimeType.Stride, tolerance: Context.SchedulerTimeType.Stride? = nil,
        scheduler: Context, options: Context.SchedulerOptions? = nil
    ) -> Publishers.PrefixUntilOutput<Self, Publishers.Delay<Just<Void>, Context>> {
        prefix(
            untilOutputFrom: Just(()).delay(for: duration, tolerance: tolerance, scheduler: scheduler, options: options)
        )
    }
}
