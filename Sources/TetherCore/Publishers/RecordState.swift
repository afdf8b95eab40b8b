/// The state of a ``Record`` playback subscription, under its lock: the subscriber, the cursor
/// into the recording, the demand that arrived while a drain loop held the cursor, and the
/// recorded completion.
@usableFromInline
internal struct RecordState<Downstream: Subscriber> {
    /// `nil` once completed or cancelled.
    @usableFromInline var downstream: Downstream?
    /// The index of the next output; `nil` while a drain loop holds it.
    @usableFromInline var cursor: Int?
    @usableFromInline var pending: Subscribers.Demand = .none
    /// Sent once the outputs have all gone out.
    @usableFromInline let completion: Subscribers.Completion<Downstream.Failure>

    @inlinable
    init(downstream: Downstream, completion: Subscribers.Completion<Downstream.Failure>) {
        self.downstream = downstream
        self.completion = completion
        cursor = 0
    }
}
