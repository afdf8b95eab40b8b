extension Publisher {
    /// The elements produced by the publisher, as a throwing asynchronous sequence.
    ///
    /// Iterating subscribes once per iterator and requests exactly one element per `next()`;
    /// nothing is buffered. If the publisher fails, the loop throws its error. Leaving the loop,
    /// or cancelling the task, cancels the subscription.
    public var values: AsyncThrowingPublisher<Self> {
        AsyncThrowingPublisher(self)
    }
}

/// A publisher that exposes its elements as a throwing asynchronous sequence.
///
/// `AsyncThrowingPublisher` conforms to `AsyncSequence`, so callers receive values with
/// `for`-`try`-`await`-`in` rather than by attaching a ``Subscriber``. If the upstream publisher
/// terminates with an error, the awaiting caller receives the error as a `throw`.
///
/// Each iterator subscribes when it is made and demands one element per call of `next()`. The
/// subscription is cancelled when the iterator is released or the iterating task is
/// cancelled, after which `next()` returns `nil`.
public struct AsyncThrowingPublisher<P: Publisher>: AsyncSequence {
    /// The type of element produced by this asynchronous sequence.
    public typealias Element = P.Output

    /// The sequence throws whatever the publisher fails with, as `any Error`, as Combine's does.
    public typealias Failure = any Error

    /// The type of asynchronous iterator that produces elements of this asynchronous sequence.
    public typealias AsyncIterator = Iterator

    @usableFromInline
    internal let publisher: P

    /// Creates a publisher that exposes elements received from an upstream publisher as a
    /// throwing asynchronous sequence.
    /// - Parameter publisher: An upstream publisher; nothing subscribes to it until an iterator
    ///   is made.
    @inlinable
    public init(_ publisher: P) {
        self.publisher = publisher
    }

    /// Creates the asynchronous iterator that produces elements of this asynchronous sequence;
    /// it subscribes to the publisher now, without demand.
    /// - Returns: An iterator of the publisher's elements.
    @inlinable
    public func makeAsyncIterator() -> Iterator {
        Iterator(publisher)
    }

    /// The iterator that produces elements of the asynchronous publisher sequence.
    public struct Iterator: AsyncIteratorProtocol {
        @usableFromInline
        internal let token: IterationToken<P.Output, P.Failure>

        @inlinable
        internal init(_ publisher: P) {
            let relay = IterationSubscriber<P.Output, P.Failure>(name: "AsyncThrowingPublisher")
            token = IterationToken(relay: relay)
            publisher.subscribe(relay)
        }

        /// Produces the next element in the prefix sequence.
        ///
        /// Requests one element and suspends until it arrives (not at all when the publisher
        /// delivers it inside the request, as a `Sequence` or `Just` does).
        /// - Returns: The next published element, or `nil` if the publisher finishes normally,
        ///   the iteration was cancelled, or the task is cancelled.
        /// - Throws: The publisher's failure; later calls return `nil`.
        @inlinable
        public mutating func next() async throws -> P.Output? {
            try await next(isolation: nil)
        }

        /// Produces the next element without leaving the caller's actor.
        /// - Parameter actor: The caller's isolation, on which the element is returned.
        /// - Returns: The next published element, or `nil` once the stream is over.
        /// - Throws: The publisher's failure; later calls return `nil`.
        @inlinable
        public mutating func next(isolation actor: isolated (any Actor)?) async throws(any Error) -> P.Output? {
            try await token.relay.next(isolation: actor).get()
        }
    }
}

extension AsyncThrowingPublisher: Sendable where P: Sendable {}
