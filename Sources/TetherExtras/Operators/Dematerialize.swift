import TetherCore

extension Publisher where Failure == Never {
    /// Turns a publisher of ``Event`` values back into the signals they describe: `.value`
    /// events into values, and the first `.finished` or `.failure` event into the completion.
    ///
    /// On the completion event the upstream is cancelled and later events are ignored; if the
    /// upstream finishes without one, the publisher finishes too. Demand passes through to the
    /// upstream unchanged (each event uses one unit). Everything is delivered on the thread that
    /// delivers the upstream's events.
    /// - Returns: A publisher of the events' values, failing with the events' failure type.
    @inlinable
    public consuming func dematerialize<Value, EventFailure: Error>()
        -> Publishers.Dematerialize<Self, Value, EventFailure>
    where Output == Event<Value, EventFailure> {
        Publishers.Dematerialize(upstream: self)
    }
}

extension Publishers {
    /// A publisher that turns a publisher of ``Event`` values back into the signals they describe.
    public struct Dematerialize<Upstream: Publisher, Output, Failure: Error>: Publisher
    where Upstream.Output == Event<Output, Failure>, Upstream.Failure == Never {
        /// The publisher of events.
        public let upstream: Upstream

        /// Creates a publisher that dematerializes `upstream`'s events.
        /// - Parameter upstream: The publisher of events.
        @inlinable
        public init(upstream: Upstream) {
            self.upstream = upstream
        }

        /// Attaches `subscriber` through a subscription to the upstream.
        /// - Parameter subscriber: The subscriber to attach.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber: Inner(downstream: subscriber))
        }
    }
}

extension Publishers.Dematerialize {
    /// The upstream's subscriber and the downstream's subscription: it ends the stream on the
    /// first completion event.
    ///
    /// `@unchecked Sendable`: its subscriber and upstream live in `link`, touched only under its
    /// lock.
    @usableFromInline
    internal final class Inner<Downstream: Subscriber>: Subscriber, Subscription,
        CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible,
        @unchecked Sendable
    where Downstream.Input == Output, Downstream.Failure == Failure {
        @usableFromInline typealias Input = Upstream.Output

        @usableFromInline
        internal enum Link {
            case awaitingSubscription(Downstream)
            case subscribed(Downstream, any Subscription)
            case terminal
        }

        @usableFromInline
        internal let link: Locked<Link>

        @inlinable
        internal init(downstream: Downstream) {
            link = Locked(.awaitingSubscription(downstream))
            Ledger.enter(self)
        }

        deinit {
            Ledger.leave(self)
        }

        @inlinable
        internal func receive(subscription: any Subscription) {
            let downstream = link.withLock { link -> Downstream? in
                guard case .awaitingSubscription(let downstream) = link else { return nil }
                link = .subscribed(downstream, subscription)
                return downstream
            }
            guard let downstream else {
                subscription.cancel()
                return
            }
            downstream.receive(subscription: self)
        }

        @inlinable
        internal func receive(_ input: Upstream.Output) -> Subscribers.Demand {
            if case .value(let value) = input {
                let downstream = link.withLock { link -> Downstream? in
                    guard case .subscribed(let downstream, _) = link else { return nil }
                    return downstream
                }
                return downstream?.receive(value) ?? .none
            }
            let previous = link.withLock { link -> Link in
                defer { link = .terminal }
                return link
            }
            guard case .subscribed(let downstream, let upstream) = previous else { return .none }
            upstream.cancel()
            switch input {
            case .failure(let failure):
                downstream.receive(completion: .failure(failure))
            case .finished, .value:
                downstream.receive(completion: .finished)
            }
            return .none
        }

        @inlinable
        internal func receive(completion: Subscribers.Completion<Never>) {
            let previous = link.withLock { link -> Link in
                defer { link = .terminal }
                return link
            }
            guard case .subscribed(let downstream, _) = previous else { return }
            downstream.receive(completion: .finished)
        }

        @inlinable
        internal func request(_ demand: Subscribers.Demand) {
            precondition(demand > 0, "Demand must not be zero: Dematerialize was asked for .none")
            let upstream = link.withLock { link -> (any Subscription)? in
                guard case .subscribed(_, let upstream) = link else { return nil }
                return upstream
            }
            upstream?.request(demand)
        }

        @inlinable
        internal func cancel() {
            let previous = link.withLock { link -> Link in
                defer { link = .terminal }
                return link
            }
            if case .subscribed(_, let upstream) = previous {
                upstream.cancel()
            }
        }

        @usableFromInline
        internal var description: String { "Dematerialize" }

        @usableFromInline
        internal var customMirror: Mirror { Mirror(self, children: [:]) }

        @usableFromInline
        internal var playgroundDescription: Any { description }
    }
}
