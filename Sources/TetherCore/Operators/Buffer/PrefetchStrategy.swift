extension Publishers {
    /// A strategy for filling a buffer.
    public enum PrefetchStrategy: Equatable, Hashable, Sendable {
        /// A strategy to fill the buffer at subscription time, and keep it full thereafter.
        ///
        /// The buffer requests its size from the upstream when it is subscribed, then one more
        /// element for each element it delivers downstream.
        case keepFull

        /// A strategy that avoids prefetching and instead performs requests on demand.
        ///
        /// As in Combine, the buffer requests `.unlimited` from the upstream when it is
        /// subscribed and keeps at most its size of undelivered elements, applying its
        /// ``BufferingStrategy`` to the rest.
        case byRequest
    }
}
