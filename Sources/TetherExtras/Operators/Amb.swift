import TetherCore

extension Publisher {
    /// Mirrors whichever of this publisher and `other` first sends a value or completes, and
    /// cancels the other.
    ///
    /// Both publishers are subscribed, this one first (`other` is not subscribed at all if this
    /// one wins while being subscribed). Demand: until a winner is known, every request goes to
    /// both, since a publisher needs demand to send the value that wins; afterwards requests go
    /// to the winner only. A completion needs no demand, so a publisher that finishes or fails
    /// first wins with that completion. Failure type: this publisher's (and `other`'s). Signals
    /// are delivered on the thread the winner delivers them on; a loser's signals after the
    /// decision are dropped. Cancelling cancels both.
    /// - Parameter other: The publisher to race this one against.
    /// - Returns: A publisher mirroring the first of the two to send a signal.
    @inlinable
    public consuming func amb<Other: Publisher>(_ other: Other) -> Publishers.Amb<Self, Other>
    where Other.Output == Output, Other.Failure == Failure {
        Publishers.Amb(first: self, second: other)
    }
}

extension Publishers {
    /// A publisher that mirrors the first of two publishers to send a value or complete, and
    /// cancels the other.
    ///
    /// Before a winner is known, requests go to both publishers; afterwards, to the winner only.
    /// It completes when the winner completes and cancels both when cancelled.
    public struct Amb<First: Publisher, Second: Publisher>: Publisher
    where First.Output == Second.Output, First.Failure == Second.Failure {
        /// The kind of values published by this publisher: both publishers'.
        public typealias Output = First.Output

        /// The kind of errors this publisher might publish: both publishers'.
        public typealias Failure = First.Failure

        /// The publisher subscribed first.
        public let first: First

        /// The publisher subscribed second.
        public let second: Second

        /// Creates a publisher racing two publishers.
        /// - Parameters:
        ///   - first: The publisher subscribed first.
        ///   - second: The publisher subscribed second.
        @inlinable
        public init(first: First, second: Second) {
            self.first = first
            self.second = second
        }

        /// Hands `subscriber` a subscription described as "Amb", then subscribes to both
        /// publishers in order.
        /// - Parameter subscriber: The subscriber to attach.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let storage = AmbSubscription(downstream: subscriber, competitors: 2)
            storage.start()
            storage.subscribe(first, at: 0)
            storage.subscribe(second, at: 1)
        }
    }
}

extension Publishers.Amb: Equatable where First: Equatable, Second: Equatable {}

extension Publishers.Amb: Sendable where First: Sendable, Second: Sendable {}
