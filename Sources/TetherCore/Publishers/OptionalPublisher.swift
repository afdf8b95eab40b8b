extension Optional {
    /// The type of a publisher that publishes the value of an optional to each subscriber
    /// exactly once, if the optional has a value at all.
    ///
    /// With a value it behaves like ``Just``: each subscriber receives the value on its first
    /// positive demand, then `.finished`. With `nil` each subscriber receives
    /// ``Subscriptions/empty`` and `.finished` at once. It never fails.
    public struct Publisher: TetherCore.Publisher {
        /// The kind of value published by this publisher.
        public typealias Output = Wrapped

        /// The kind of error this publisher might publish: it never fails.
        public typealias Failure = Never

        /// The output to deliver to each subscriber, or `nil` to finish without a value.
        public let output: Wrapped?

        /// Creates a publisher to emit the value of the optional, or to finish immediately if
        /// the optional doesn't have a value.
        /// - Parameter output: The result to deliver to each subscriber.
        @inlinable
        public init(_ output: Wrapped?) {
            self.output = output
        }

        /// Attaches `subscriber`: a one-value subscription, or an immediate finish for `nil`.
        /// - Parameter subscriber: The subscriber to attach.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Wrapped, S.Failure == Never {
            if let output {
                SingleValueSubscription(downstream: subscriber, value: output, publisherName: "Optional")
                    .start(subscriber)
            } else {
                subscriber.receive(subscription: Subscriptions.empty)
                subscriber.receive(completion: .finished)
            }
        }
    }

    /// A publisher that publishes this optional's value to each subscriber exactly once, or
    /// finishes at once when it is `nil`.
    @inlinable
    public var publisher: Optional<Wrapped>.Publisher {
        Optional<Wrapped>.Publisher(self)
    }
}

extension Optional.Publisher: Equatable where Wrapped: Equatable {}

extension Optional.Publisher: Sendable where Wrapped: Sendable {}

extension Optional.Publisher {
    /// Transforms the output, if any, right away and publishes the result.
    ///
    /// - Parameter transform: A closure that takes the output and returns a new element.
    /// - Returns: An `Optional.Publisher` of the transformed element, or of `nil`.
    @inlinable
    public func map<T>(_ transform: (Wrapped) -> T) -> Optional<T>.Publisher {
        Optional<T>.Publisher(output.map(transform))
    }

    /// Tests the output, if any, right away and keeps it only if the closure returns `true`.
    ///
    /// - Parameter isIncluded: A closure that takes the output and returns whether to publish it.
    /// - Returns: An `Optional.Publisher` of the output, or of `nil` when there was none or the
    ///   closure rejected it.
    @inlinable
    public func filter(_ isIncluded: (Wrapped) -> Bool) -> Optional<Wrapped>.Publisher {
        Optional<Wrapped>.Publisher(output.flatMap { isIncluded($0) ? $0 : nil })
    }

    /// Transforms the output, if any, right away and publishes the result if it is not `nil`.
    ///
    /// - Parameter transform: A closure that takes the output and returns an optional element.
    /// - Returns: An `Optional.Publisher` of the non-`nil` result, or of `nil`.
    @inlinable
    public func compactMap<T>(_ transform: (Wrapped) -> T?) -> Optional<T>.Publisher {
        Optional<T>.Publisher(output.flatMap(transform))
    }
}
