extension Publishers {
    /// A strategy that handles exhaustion of a buffer's capacity.
    public enum BufferingStrategy<Failure: Error> {
        /// When the buffer is full, discard the newly received element.
        case dropNewest

        /// When the buffer is full, discard the oldest element in the buffer.
        case dropOldest

        /// When the buffer is full, execute the closure to provide a custom error.
        ///
        /// The buffer then cancels the upstream; the subscriber receives the error once it next
        /// requests, after the buffered elements that its demand covers.
        case customError(() -> Failure)
    }
}
