import TetherCore

extension Collection where Element: Publisher {
    /// Combines the latest values of every publisher in the collection into an array, each time
    /// any of them produces a value once all of them have.
    ///
    /// The collection form of ``Publisher/combineLatest(_:)``, with the same state machine:
    /// nothing is published until every publisher has produced a value; then each new value
    /// publishes the array of the latest value of each, in collection order. An empty collection
    /// finishes at once (as CombineExt's `combineLatest()` does, through `Empty`).
    ///
    /// Demand: every request is forwarded to every publisher; a combination that finds no demand
    /// is dropped, as `combineLatest` drops it: its values stay the latest, and demand that
    /// arrives later waits for the next new value. Failure type: the publishers'; the first
    /// failure cancels the others and fails the downstream. It finishes once every publisher has
    /// finished. Values are delivered one at a time, on the thread of the publisher that sent the
    /// value.
    /// - Returns: A publisher of arrays holding the latest value of each publisher.
    @inlinable
    public func combineLatest() -> Publishers.CombineLatestCollection<Element> {
        Publishers.CombineLatestCollection(Array(self))
    }
}

extension Publishers {
    /// A publisher that combines the latest values of any number of publishers of one type into
    /// arrays.
    ///
    /// See ``Publishers/CombineLatest`` for demand, delivery and completion, which are the same;
    /// with no publishers it finishes at once.
    public struct CombineLatestCollection<Upstream: Publisher>: Publisher {
        /// The kind of values published by this publisher: one value of each publisher, in order.
        public typealias Output = [Upstream.Output]

        /// The kind of errors this publisher might publish: the publishers'.
        public typealias Failure = Upstream.Failure

        /// The publishers combined, in the order of the arrays' elements.
        public let publishers: [Upstream]

        /// Creates a publisher that combines the latest values of `publishers`.
        /// - Parameter publishers: The publishers to combine, in the order of the arrays'
        ///   elements.
        @inlinable
        public init(_ publishers: [Upstream]) {
            self.publishers = publishers
        }

        /// Attaches `subscriber` through a subscription described as "CombineLatest", then
        /// subscribes to the publishers in order; with no publishers, finishes at once.
        /// - Parameter subscriber: The subscriber to attach.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            CombineLatestSubscription<CombiningSlotArray<LatestSlot<Upstream.Output?>>, S>.attach(
                subscriber, to: publishers)
        }
    }
}

extension Publishers.CombineLatestCollection: Equatable where Upstream: Equatable {}

extension Publishers.CombineLatestCollection: Sendable where Upstream: Sendable {}
