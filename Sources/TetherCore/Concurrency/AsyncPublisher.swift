extension Publisher where Failure == Never {
    /// The elements produced by the publisher, as an asynchronous sequence.
    ///
    /// Iterating subscribes once per iterator and requests exactly one element per `next()`, so
    /// the publisher never gets ahead of the loop and nothing is buffered: a hot publisher's
    /// elements sent while the loop body runs are dropped as for any subscriber without demand
    /// (put a `buffer(size:prefetch:whenFull:)` in front to keep them). Leaving the loop, or
    /// cancelling the task, cancels the subscription.
    public var values: AsyncPublisher<Self> {
        AsyncPublisher(self)
    }
}

/// A publisher that exposes its elements as an asynchronous sequence.
///
/// `AsyncPublisher` conforms to `AsyncSequence`, so callers receive values with
/// `for`-`await`-`in` rather than by attaching a ``Subscriber``. Use the `values`
/// property of a publisher that never fails to make one.
///
/// Each iterator subscribes when it is made and demands one element per call of `next()`. The
/// element is returned on the caller's executor (the publisher's thread only resumes it). The
/// subscription is cancelled when the iterator is released (the loop breaks or the enclosing
/// scope ends) or when the iterating task is cancelled, after which `next()` returns `nil`.
public struct AsyncPublisher<P: Publisher>: AsyncSequence where P.Failure == Never {
    /// The type of element produced by this asynchronous sequence.
    public typealias Element = P.Output

    /// The sequence never throws.
    public typealias Failure = Never

    /// The type of asynchronous iterator that produces elements of this asynchronous sequence.
    public typealias AsyncIterator = Iterator

    @usableFromInline
    internal let publisher: P

    /// Creates a publisher that exposes elements received from an upstream publisher as an
    /// asynchronous sequence.
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
        internal let token: IterationToken<P.Output, Never>

        @inlinable
        internal init(_ publisher: P) {
            let relay = IterationSubscriber<P.Output, Never>(name: "AsyncPublisher")
            token = IterationToken(relay: relay)
            publisher.subscribe(relay)
        }

        /// Produces the next element in the prefix sequence.
        ///
        /// Requests one element and suspends until it arrives (not at all when the publisher
        /// delivers it inside the request, as a `Sequence` or `Just` does).
        /// - Returns: The next published element, or `nil` if the publisher finishes normally,
        ///   the iteration was cancelled, or the task is cancelled.
        @inlinable
        public mutating func next() async -> P.Output? {
            await next(isolation: nil)
        }

        /// Produces the next element without leaving the caller's actor.
        /// - Parameter actor: The caller's isolation, on which the element is returned.
        /// - Returns: The next published element, or `nil` once the stream is over.
        @inlinable
        public mutating func next(isolation actor: isolated (any Actor)?) async -> P.Output? {
            switch await token.relay.next(isolation: actor) {
            case .success(let element): return element
            }
        }
    }
}

extension AsyncPublisher: Sendable where P: Sendable {}
