import TetherCore

extension Collection where Element: Publisher {
    /// Mirrors whichever of these publishers first sends a value or completes, and cancels the
    /// others.
    ///
    /// The publishers are subscribed in order, and no more are subscribed once one has won.
    /// An empty collection finishes at once, as CombineExt's `amb()` does. Demand, completion
    /// and delivery are as in ``Publisher/amb(_:)``: until a winner is known every request goes
    /// to every subscribed publisher, afterwards to the winner only.
    /// - Returns: A publisher mirroring the first of these publishers to send a signal.
    @inlinable
    public func amb() -> Publishers.AmbMany<Element> {
        Publishers.AmbMany(Array(self))
    }
}

extension Publisher {
    /// Mirrors whichever of this publisher and `others` first sends a value or completes, and
    /// cancels the rest.
    ///
    /// This publisher is subscribed first, then `others` in order; see ``Publisher/amb(_:)`` for
    /// demand, completion and delivery.
    /// - Parameter others: The publishers to race this one against.
    /// - Returns: A publisher mirroring the first of them to send a signal.
    @inlinable
    public func amb(with others: Self...) -> Publishers.AmbMany<Self> {
        Publishers.AmbMany([self] + others)
    }
}

extension Publishers {
    /// A publisher that mirrors the first of several publishers of one type to send a value or
    /// complete, and cancels the others.
    ///
    /// Before a winner is known, requests go to every subscribed publisher; afterwards, to the
    /// winner only. With no publishers it finishes at once.
    public struct AmbMany<Upstream: Publisher>: Publisher {
        /// The kind of values published by this publisher: the publishers'.
        public typealias Output = Upstream.Output

        /// The kind of errors this publisher might publish: the publishers'.
        public typealias Failure = Upstream.Failure

        /// The publishers raced, in the order they are subscribed.
        public let publishers: [Upstream]

        /// Creates a publisher racing `publishers`.
        /// - Parameter publishers: The publishers to race, in the order to subscribe them.
        @inlinable
        public init(_ publishers: [Upstream]) {
            self.publishers = publishers
        }

        /// Hands `subscriber` a subscription described as "Amb", then subscribes to the
        /// publishers in order until one has won; with no publishers, finishes at once.
        /// - Parameter subscriber: The subscriber to attach.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            guard !publishers.isEmpty else {
                subscriber.receive(subscription: Subscriptions.empty)
                subscriber.receive(completion: .finished)
                return
            }
            let storage = AmbSubscription(downstream: subscriber, competitors: publishers.count)
            storage.start()
            for (index, publisher) in publishers.enumerated() {
                storage.subscribe(publisher, at: index)
            }
        }
    }
}

extension Publishers.AmbMany: Equatable where Upstream: Equatable {}

extension Publishers.AmbMany: Sendable where Upstream: Sendable {}
