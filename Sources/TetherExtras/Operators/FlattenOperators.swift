import TetherCore

// Flattening operators beyond Combine's catalogue, composed of Combine's own operators: they add
// no subscription type of their own, so their semantics are exactly those of the composition.

extension Publisher {
    /// Transforms each value into a publisher and republishes the values of only the most
    /// recent one: `map(transform).switchToLatest()`.
    ///
    /// When a new value arrives, the publisher made from the previous value is cancelled and the
    /// one made from the new value is subscribed; values the cancelled one still sends are
    /// dropped. The publisher finishes when this publisher and the current inner publisher have
    /// both finished.
    ///
    /// Demand: this publisher is asked for `.unlimited`; the downstream's demand goes to the
    /// current inner publisher (a new inner publisher is asked for the demand still outstanding).
    /// Failure type: this publisher's, which the inner publishers share; a failure of either
    /// cancels the other and fails the downstream. Values are delivered on the thread the current
    /// inner publisher delivers them on, or on the downstream's thread when it requests values
    /// that waited. Cancelling cancels this publisher and the current inner publisher.
    /// - Parameter transform: A closure making the publisher for a value; it runs on the thread
    ///   that delivers this publisher's values.
    /// - Returns: A publisher of the values of the most recent inner publisher.
    @inlinable
    public func flatMapLatest<P: Publisher>(
        _ transform: @escaping (Output) -> P
    ) -> Publishers.SwitchToLatest<P, Publishers.Map<Self, P>> where P.Failure == Failure {
        map(transform).switchToLatest()
    }

    /// Transforms each value into a publisher and republishes their values one publisher after
    /// the other, in order: `flatMap(maxPublishers: .max(1), transform)`.
    ///
    /// Only one inner publisher is subscribed at a time: the next value is asked for once the
    /// current inner publisher finishes. The publisher finishes when this publisher and the last
    /// inner publisher have finished.
    ///
    /// Demand: this publisher is asked for one value at first and one more each time an inner
    /// publisher finishes; the inner publisher gets the downstream's demand. An upstream that
    /// ignores demand, such as a ``PassthroughSubject``, drops the values it sends while an inner
    /// publisher is active; put `buffer(size:prefetch:whenFull:)` in front of it to keep them.
    /// Failure type: this publisher's, which the inner publishers share; a failure of either
    /// cancels everything and fails the downstream. Values are delivered on the thread the inner
    /// publisher delivers them on, or on the downstream's thread when it requests values that
    /// waited. Cancelling cancels this publisher and the current inner publisher.
    /// - Parameter transform: A closure making the publisher for a value; it runs on the thread
    ///   that delivers this publisher's values.
    /// - Returns: A publisher of the inner publishers' values, concatenated.
    @inlinable
    public func concatMap<P: Publisher>(
        _ transform: @escaping (Output) -> P
    ) -> Publishers.FlatMap<P, Self> where P.Failure == Failure {
        flatMap(maxPublishers: .max(1), transform)
    }
}

// The overloads Combine's `flatMap` has for failure types that differ by `Never`: the side that
// cannot fail is given the other's failure type with `setFailureType(to:)`.

extension Publisher {
    /// Transforms each value into a publisher that cannot fail and republishes the values of only
    /// the most recent one.
    ///
    /// The inner publishers are given this publisher's failure type with
    /// ``Publisher/setFailureType(to:)``; demand, completion and delivery are as in
    /// `flatMapLatest(_:)`.
    /// - Parameter transform: A closure making the publisher for a value.
    /// - Returns: A publisher of the values of the most recent inner publisher.
    @inlinable
    public func flatMapLatest<P: Publisher>(
        _ transform: @escaping (Output) -> P
    )
        -> Publishers.SwitchToLatest<
            Publishers.SetFailureType<P, Failure>, Publishers.Map<Self, Publishers.SetFailureType<P, Failure>>
        > where P.Failure == Never
    {
        map { transform($0).setFailureType(to: Failure.self) }.switchToLatest()
    }

    /// Transforms each value into a publisher that cannot fail and republishes their values one
    /// publisher after the other, in order.
    ///
    /// The inner publishers are given this publisher's failure type with
    /// ``Publisher/setFailureType(to:)``; demand, completion and delivery are as in
    /// `concatMap(_:)`.
    /// - Parameter transform: A closure making the publisher for a value.
    /// - Returns: A publisher of the inner publishers' values, concatenated.
    @inlinable
    public func concatMap<P: Publisher>(
        _ transform: @escaping (Output) -> P
    ) -> Publishers.FlatMap<Publishers.SetFailureType<P, Failure>, Self> where P.Failure == Never {
        flatMap(maxPublishers: .max(1), transform)
    }
}

extension Publisher where Failure == Never {
    /// Transforms each value of a publisher that cannot fail into a publisher that can, and
    /// republishes the values of only the most recent one.
    ///
    /// This publisher is given the inner publishers' failure type with
    /// ``Publisher/setFailureType(to:)``; demand, completion and delivery are as in
    /// `flatMapLatest(_:)`.
    /// - Parameter transform: A closure making the publisher for a value.
    /// - Returns: A publisher of the values of the most recent inner publisher.
    @inlinable
    public func flatMapLatest<P: Publisher>(
        _ transform: @escaping (Output) -> P
    ) -> Publishers.SwitchToLatest<P, Publishers.Map<Publishers.SetFailureType<Self, P.Failure>, P>> {
        setFailureType(to: P.Failure.self).map(transform).switchToLatest()
    }

    /// Transforms each value of a publisher that cannot fail into a publisher that cannot fail
    /// either, and republishes the values of only the most recent one.
    ///
    /// Demand, completion and delivery are as in `flatMapLatest(_:)`.
    /// - Parameter transform: A closure making the publisher for a value.
    /// - Returns: A publisher of the values of the most recent inner publisher.
    @inlinable
    public func flatMapLatest<P: Publisher>(
        _ transform: @escaping (Output) -> P
    ) -> Publishers.SwitchToLatest<P, Publishers.Map<Self, P>> where P.Failure == Never {
        map(transform).switchToLatest()
    }

    /// Transforms each value of a publisher that cannot fail into a publisher that can, and
    /// republishes their values one publisher after the other, in order.
    ///
    /// This publisher is given the inner publishers' failure type with
    /// ``Publisher/setFailureType(to:)``; demand, completion and delivery are as in
    /// `concatMap(_:)`.
    /// - Parameter transform: A closure making the publisher for a value.
    /// - Returns: A publisher of the inner publishers' values, concatenated.
    @inlinable
    public func concatMap<P: Publisher>(
        _ transform: @escaping (Output) -> P
    ) -> Publishers.FlatMap<P, Publishers.SetFailureType<Self, P.Failure>> {
        flatMap(maxPublishers: .max(1), transform)
    }

    /// Transforms each value of a publisher that cannot fail into a publisher that cannot fail
    /// either, and republishes their values one publisher after the other, in order.
    ///
    /// Demand, completion and delivery are as in `concatMap(_:)`.
    /// - Parameter transform: A closure making the publisher for a value.
    /// - Returns: A publisher of the inner publishers' values, concatenated.
    @inlinable
    public func concatMap<P: Publisher>(
        _ transform: @escaping (Output) -> P
    ) -> Publishers.FlatMap<P, Self> where P.Failure == Never {
        flatMap(maxPublishers: .max(1), transform)
    }
}
