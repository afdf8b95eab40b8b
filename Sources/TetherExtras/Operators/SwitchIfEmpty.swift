import TetherCore

extension Publisher {
    /// Republishes this publisher's values; if it finishes without any, subscribes to `fallback`
    /// and republishes its values and completion instead.
    ///
    /// Demand: the downstream's demand goes to this publisher, and `fallback` is asked at once
    /// for all of it (nothing was delivered); requests go to `fallback` from then on. Failure
    /// type: this publisher's (and `fallback`'s); a failure of this publisher passes through and
    /// `fallback` is never subscribed. Values are delivered on the thread the current publisher
    /// delivers them on; `fallback` is subscribed on the thread this publisher finishes on.
    /// Cancelling cancels the current publisher.
    /// - Parameter fallback: The publisher to switch to when this one finishes empty.
    /// - Returns: A publisher of this publisher's values, or of `fallback`'s when it has none.
    @inlinable
    public consuming func switchIfEmpty<Fallback: Publisher>(
        _ fallback: Fallback
    ) -> Publishers.SwitchIfEmpty<Self, Fallback> where Fallback.Output == Output, Fallback.Failure == Failure {
        Publishers.SwitchIfEmpty(upstream: self, fallback: fallback)
    }

    /// Republishes this publisher's values; if it finishes without any, makes a publisher with
    /// `makeFallback` and republishes its values and completion instead.
    ///
    /// `makeFallback` runs only when needed, once per empty subscription, through ``Deferred``.
    /// Demand, failure type and delivery are as in `switchIfEmpty(_:)` given a publisher.
    /// - Parameter makeFallback: Makes the publisher to switch to; it runs on the thread this
    ///   publisher finishes on.
    /// - Returns: A publisher of this publisher's values, or of the fallback's when it has none.
    @inlinable
    public consuming func switchIfEmpty<Fallback: Publisher>(
        _ makeFallback: @escaping () -> Fallback
    ) -> Publishers.SwitchIfEmpty<Self, Deferred<Fallback>>
    where Fallback.Output == Output, Fallback.Failure == Failure {
        Publishers.SwitchIfEmpty(upstream: self, fallback: Deferred(createPublisher: makeFallback))
    }

    /// Fails with `error` if this publisher finishes without producing any value.
    ///
    /// `switchIfEmpty(Fail(error: error))`: values, demand and failures pass through; an empty
    /// finish becomes the failure, delivered on the thread this publisher finishes on (a failure
    /// needs no demand).
    /// - Parameter error: The failure to publish in place of an empty finish.
    /// - Returns: A publisher that fails when this one finishes empty.
    @inlinable
    public consuming func replaceEmpty(withError error: Failure)
        -> Publishers.SwitchIfEmpty<Self, Fail<Output, Failure>>
    {
        Publishers.SwitchIfEmpty(upstream: self, fallback: Fail(error: error))
    }
}

extension Publishers {
    /// A publisher that republishes its upstream's values, or, if the upstream finishes without
    /// any, those of a fallback publisher.
    ///
    /// The downstream sees one subscription; the fallback is subscribed only after an empty
    /// finish and is asked at once for the demand made so far.
    public struct SwitchIfEmpty<Upstream: Publisher, Fallback: Publisher>: Publisher
    where Upstream.Output == Fallback.Output, Upstream.Failure == Fallback.Failure {
        /// The kind of values published by this publisher: the upstream's and the fallback's.
        public typealias Output = Upstream.Output

        /// The kind of errors this publisher might publish: the upstream's and the fallback's.
        public typealias Failure = Upstream.Failure

        /// The publisher republished first.
        public let upstream: Upstream

        /// The publisher subscribed when the upstream finishes without a value.
        public let fallback: Fallback

        /// Creates a publisher that switches to `fallback` when `upstream` finishes empty.
        /// - Parameters:
        ///   - upstream: The publisher republished first.
        ///   - fallback: The publisher subscribed when `upstream` finishes without a value.
        @inlinable
        public init(upstream: Upstream, fallback: Fallback) {
            self.upstream = upstream
            self.fallback = fallback
        }

        /// Attaches `subscriber` through a subscription described as "SwitchIfEmpty".
        /// - Parameter subscriber: The subscriber to attach.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let relay = FailoverSubscription(name: "SwitchIfEmpty", downstream: subscriber, recovery: fallback)
            upstream.receive(subscriber: Side(relay: relay, isFallback: false))
        }
    }
}

extension Publishers.SwitchIfEmpty: Equatable where Upstream: Equatable, Fallback: Equatable {}

extension Publishers.SwitchIfEmpty: Sendable where Upstream: Sendable, Fallback: Sendable {}

extension Publishers.SwitchIfEmpty {
    /// The subscriber of the upstream, then of the fallback, feeding the shared relay.
    @usableFromInline
    internal struct Side<Downstream: Subscriber>: Subscriber, CustomStringConvertible,
        CustomReflectable, CustomPlaygroundDisplayConvertible
    where Downstream.Input == Output, Downstream.Failure == Failure {
        @usableFromInline typealias Input = Output

        @usableFromInline let relay: FailoverSubscription<Downstream, Fallback>
        @usableFromInline let isFallback: Bool
        @usableFromInline let combineIdentifier = CombineIdentifier()

        @inlinable
        init(relay: FailoverSubscription<Downstream, Fallback>, isFallback: Bool) {
            self.relay = relay
            self.isFallback = isFallback
        }

        @inlinable
        func receive(subscription: any Subscription) {
            relay.attach(subscription)
        }

        @inlinable
        func receive(_ input: Output) -> Subscribers.Demand {
            relay.relay(input)
        }

        @inlinable
        func receive(completion: Subscribers.Completion<Failure>) {
            // The upstream's values are counted on the serial path, which this is.
            guard !isFallback, case .finished = completion, !relay.hasDelivered else {
                relay.finish(completion)
                return
            }
            guard let fallback = relay.recovery(), relay.beginSwitch() else { return }
            fallback.receive(subscriber: Side(relay: relay, isFallback: true))
        }

        @usableFromInline var description: String { "SwitchIfEmpty" }
        @usableFromInline var customMirror: Mirror { Mirror(self, children: ["isFallback": isFallback]) }
        @usableFromInline var playgroundDescription: Any { description }
    }
}
