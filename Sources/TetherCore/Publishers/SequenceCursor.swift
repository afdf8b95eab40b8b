/// What the drain token of a ``Publishers/Sequence`` subscription guards, held as one value (see
/// ``SubscriptionBase``): the subscriber (`nil` once finished or cancelled) and the parked cursor, the
/// iterator and the element it has already produced (`nil` while a drainer holds them).
@usableFromInline
internal struct SequenceCursor<Downstream, Iterator: IteratorProtocol> {
    @usableFromInline var downstream: Downstream?
    @usableFromInline var iterator: Iterator?
    @usableFromInline var next: Iterator.Element?

    @inlinable
    init(downstream: Downstream?) {
        self.downstream = downstream
    }

    @inlinable
    init(downstream: Downstream, iterator: Iterator, next: Iterator.Element) {
        self.downstream = downstream
        self.iterator = iterator
        self.next = next
    }
}
