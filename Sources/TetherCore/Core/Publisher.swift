/// Declares that a type can transmit a sequence of values over time.
///
/// A publisher delivers elements to one or more ``Subscriber`` instances. The subscriber's
/// `Input` and `Failure` must match the publisher's `Output` and `Failure`.
///
/// Subscribing calls ``receive(subscriber:)``; the publisher then calls, in order and never
/// concurrently, `receive(subscription:)` once, `receive(_:)` at most as many times as the
/// subscriber has demanded, and `receive(completion:)` at most once.
public protocol Publisher<Output, Failure> {
    /// The kind of values published by this publisher.
    associatedtype Output

    /// The kind of errors this publisher might publish; `Never` if it cannot fail.
    associatedtype Failure: Error

    /// Attaches the specified subscriber to this publisher.
    ///
    /// Implement this in your own publishers; callers use ``subscribe(_:)->()`` instead.
    ///
    /// The subscriber is passed `consuming`: the publisher receives a value of its own, which it
    /// can keep without copying it. This changes nothing in source: an implementation declared
    /// with a plain `subscriber: S`, as Combine's is, conforms, and a caller passes any
    /// subscriber, which Swift copies when the caller keeps using it.
    /// - Parameter subscriber: The subscriber to attach to this publisher.
    func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Output, S.Failure == Failure
}

extension Publisher {
    /// Attaches the specified subscriber to this publisher.
    ///
    /// Always call this function instead of ``receive(subscriber:)``. In debug builds, when the
    /// subscriber is a `Sink` or an `Assign` made by hand, the subscription ledger records the
    /// chain of publishers it is attached to, so that a leak report names it. While an
    /// `_Introspection` is enabled, the subscription is reported to it and the publisher
    /// receives a wrapper of `subscriber` that reports its signals.
    /// - Parameter subscriber: The subscriber to attach to this publisher; once attached it can
    ///   begin to receive values.
    @inlinable @inline(__always)
    public func subscribe<S: Subscriber>(_ subscriber: S)
    where S.Input == Output, S.Failure == Failure {
        subscribe(moving: subscriber)
    }

    /// What ``subscribe(_:)->()`` does, for a subscriber the caller hands over: the library's
    /// own, made just before (a relay, an erased box), moves into ``receive(subscriber:)``, where
    /// one passed to `subscribe(_:)`, which only borrows it, is copied.
    @inlinable @inline(__always)
    internal func subscribe<S: Subscriber>(moving subscriber: consuming S)
    where S.Input == Output, S.Failure == Failure {
        #if DEBUG
        Ledger.noteSubscribe(subscriber, publisher: self)
        #endif
        if _slowPath(IntrospectionRegistry.isActive) {
            IntrospectionRegistry.subscribe(subscriber, to: self)
        } else {
            receive(subscriber: subscriber)
        }
    }
}

/// A namespace for types that serve as publishers.
///
/// The operators on ``Publisher`` return values of these types, so a chain of operators spells
/// its whole shape in its type (for example `Publishers.Filter<Publishers.Map<P, Int>>`).
public enum Publishers {}
