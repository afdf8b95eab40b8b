extension Publisher {
    /// Replaces `nil` elements in the stream with the provided element.
    ///
    /// As in Combine this is a ``Publishers/Map``: demand, failures and the subscription pass
    /// through unchanged.
    /// - Parameter output: The element to use when replacing `nil`.
    /// - Returns: A publisher that replaces `nil` elements from the upstream publisher with the
    ///   provided element.
    @inlinable
    public consuming func replaceNil<T>(with output: T) -> Publishers.Map<Self, T> where Output == T? {
        Publishers.Map(upstream: self) { $0 ?? output }
    }
}
