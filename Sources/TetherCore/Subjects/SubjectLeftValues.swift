/// The values sent into a subject from inside its subscriber's `receive`, left for the thread
/// delivering to it (see ``SubjectSubscriptionState``).
///
/// Made on the first such send: most subscriptions never have one, and an absent queue takes
/// eight bytes of the subscription where a ``RingBuffer`` takes twenty-four.
@usableFromInline
package final class SubjectLeftValues<Output> {
    /// Oldest first.
    @usableFromInline @exclusivity(unchecked)
    package var values = RingBuffer<Output>()

    /// A completion sent after `values`, for a ``SubjectSink`` (a subscription's state machine
    /// keeps its own); erased, so that the unspecialised `deinit` looks no type up (see
    /// ``SubjectOutcome``).
    @usableFromInline @exclusivity(unchecked)
    package var completion: SubjectOutcome?

    /// A queue holding what `other` holds, or an empty one.
    @inlinable
    package init(copying other: SubjectLeftValues?) {
        if let other { values = other.values }
    }
}
