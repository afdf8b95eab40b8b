import TetherCore

extension Collection where Element: Publisher {
    /// Zips every publisher in the collection: publishes an array of the oldest unpaired value
    /// of each, once every publisher has one.
    ///
    /// The collection form of ``Publisher/zip(_:)``, with the same state machine: values wait in
    /// order until each publisher has one, and each array holds them in collection order. An
    /// empty collection finishes at once (as CombineExt's `zip()` does, through `Empty`).
    ///
    /// Demand: every request is forwarded to every publisher. Failure type: the publishers'; the
    /// first failure cancels the others and fails the downstream. It finishes as soon as a
    /// publisher has finished with no unpaired value left, cancelling the others. Arrays are
    /// delivered one at a time, on the thread of the publisher that completed the array (or of
    /// the request that released it).
    /// - Returns: A publisher of arrays holding one value of each publisher.
    @inlinable
    public func zip() -> Publishers.ZipCollection<Element> {
        Publishers.ZipCollection(Array(self))
    }
}

extension Publishers {
    /// A publisher that zips any number of publishers of one type into arrays.
    ///
    /// See ``Publishers/Zip`` for demand, delivery and completion, which are the same;
    /// with no publishers it finishes at once.
    public struct ZipCollection<Upstream: Publisher>: Publisher {
        /// The kind of values published by this publisher: one value of each publisher, in order.
        public typealias Output = [Upstream.Output]

        /// The kind of errors this publisher might publish: the publishers'.
        public typealias Failure = Upstream.Failure

        /// The publishers zipped, in the order of the arrays' elements.
        public let publishers: [Upstream]

        /// Creates a publisher that zips `publishers`.
        /// - Parameter publishers: The publishers to zip, in the order of the arrays'
        ///   elements.
        @inlinable
        public init(_ publishers: [Upstream]) {
            self.publishers = publishers
        }

        /// Attaches `subscriber` through a subscription described as "Zip", then
        /// subscribes to the publishers in order; with no publishers, finishes at once.
        /// - Parameter subscriber: The subscriber to attach.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            ZipSubscription<CombiningSlotArray<ZipSlot<Upstream.Output?>>, S>.attach(subscriber, to: publishers)
        }
    }
}

extension Publishers.ZipCollection: Equatable where Upstream: Equatable {}

extension Publishers.ZipCollection: Sendable where Upstream: Sendable {}
