import Synchronization

/// A publisher that allows for recording a series of inputs and a completion, for later
/// playback to each subscriber.
///
/// Each subscriber gets its own playback: the recorded outputs as it demands them, then the
/// recorded completion right after the last output (at once, without demand, if there are no
/// outputs). Values are delivered on the thread that requests them, from inside the request;
/// as in Combine, a request of `.none` does nothing.
public struct Record<Output, Failure: Error>: Publisher {
    /// The recorded output and completion.
    public let recording: Recording

    /// Creates a publisher to interactively record a series of outputs and a completion.
    ///
    /// A recording the closure leaves without a completion plays back as `.finished`.
    /// - Parameter record: A closure that fills in the recording it is given.
    @inlinable
    public init(record: (inout Recording) -> Void) {
        var recording = Recording()
        record(&recording)
        self.recording = recording
    }

    /// Creates a record publisher from an existing recording.
    /// - Parameter recording: A previously-recorded recording of published elements and a
    ///   completion.
    @inlinable
    public init(recording: Recording) {
        self.recording = recording
    }

    /// Creates a record publisher to publish the provided elements, followed by the provided
    /// completion value.
    /// - Parameters:
    ///   - output: An array of output elements to publish.
    ///   - completion: The completion value with which to end publishing.
    @inlinable
    public init(output: [Output], completion: Subscribers.Completion<Failure>) {
        recording = Recording(output: output, completion: completion)
    }

    /// Attaches `subscriber` and plays the recording back to it as it demands.
    /// - Parameter subscriber: The subscriber to attach.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        if recording.output.isEmpty {
            subscriber.receive(subscription: Subscriptions.empty)
            subscriber.receive(completion: recording.completion)
        } else {
            subscriber.receive(
                subscription: Inner(
                    downstream: subscriber, output: recording.output, completion: recording.completion))
        }
    }
}

extension Record {
    /// A recorded sequence of outputs, followed by a completion value.
    public struct Recording {
        /// The kind of values the recording takes.
        public typealias Input = Output

        /// The output which will be sent to a `Subscriber`.
        public private(set) var output: [Output]

        /// The completion which will be sent to a `Subscriber`; `.finished` until one is
        /// recorded.
        public private(set) var completion: Subscribers.Completion<Failure>

        private var isComplete: Bool

        /// Set up a recording in a state ready to receive output.
        public init() {
            output = []
            completion = .finished
            isComplete = false
        }

        /// Set up a complete recording with the specified output and completion.
        /// - Parameters:
        ///   - output: The outputs to play back.
        ///   - completion: The completion to send after the outputs.
        public init(output: [Output], completion: Subscribers.Completion<Failure> = .finished) {
            self.output = output
            self.completion = completion
            isComplete = true
        }

        /// Add an output to the recording.
        ///
        /// Traps if the recording already has its completion.
        /// - Parameter input: The output to append.
        public mutating func receive(_ input: Input) {
            precondition(
                !isComplete,
                "Record.Recording received a value after its completion: a recording ends with it")
            output.append(input)
        }

        /// Add a completion to the recording.
        ///
        /// Traps if the recording already has its completion.
        /// - Parameter completion: The completion to end the recording with.
        public mutating func receive(completion: Subscribers.Completion<Failure>) {
            precondition(!isComplete, "Record.Recording received a second completion: it takes exactly one")
            self.completion = completion
            isComplete = true
        }
    }
}

extension Record {
    /// The playback subscription, with the drain loop of ``Publishers/Sequence``: whoever finds
    /// the cursor parked delivers until the demand it took is spent, while requests arriving
    /// meanwhile only add to `pending`. Delivery never recurses and never overlaps.
    ///
    /// `@unchecked Sendable`: its state lives under its lock, `cancelled` is atomic, and the
    /// recording is immutable.
    ///
    /// Its state, with the completion, is the base class's `state` (a ``RecordState``), with the
    /// lock beside it, so that the `deinit`, which runs unspecialised, looks no type up
    /// (Docs/FastWithoutTheSpecialiser.md, "Generic state in one value").
    @usableFromInline
    internal final class Inner<Downstream: Subscriber>: SubscriptionBase<RecordState<Downstream>>, Subscription,
        CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
    where Downstream.Input == Output, Downstream.Failure == Failure {
        /// Guards `state`.
        @usableFromInline
        internal let lock = Locked(())

        /// Set by `cancel`, read by the drain loop before every element.
        @usableFromInline
        internal let cancelled = Atomic<Bool>(false)

        @usableFromInline
        internal let output: [Output]

        @inlinable
        internal init(downstream: Downstream, output: [Output], completion: Subscribers.Completion<Failure>) {
            self.output = output
            super.init(state: RecordState(downstream: downstream, completion: completion))
            Ledger.enter(self)
        }

        /// Runs `body` on the state under the lock.
        @inlinable @inline(__always)
        internal func withState<Result>(_ body: (inout RecordState<Downstream>) -> Result) -> Result {
            lock.withLock { _ in body(&state) }
        }

        deinit {
            Ledger.leave(self)
        }

        @inlinable
        internal func request(_ demand: Subscribers.Demand) {
            guard demand > 0 else { return }
            let start = withState { state -> (Downstream, Int, Subscribers.Demand)? in
                guard let downstream = state.downstream else { return nil }
                state.pending += demand
                guard let cursor = state.cursor else { return nil }
                state.cursor = nil
                defer { state.pending = .none }
                return (downstream, cursor, state.pending)
            }
            if let (downstream, cursor, budget) = start {
                drain(downstream, cursor, budget)
            }
        }

        @inlinable
        internal func drain(_ downstream: Downstream, _ cursor: Int, _ budget: Subscribers.Demand) {
            var index = cursor
            var budget = budget
            while true {
                while budget > 0 {
                    if cancelled.load(ordering: .relaxed) { return }
                    budget -= 1
                    budget += downstream.receive(output[index])
                    index += 1
                    if index == output.endIndex {
                        finish(downstream)
                        return
                    }
                }
                let resumed = withState { state -> Subscribers.Demand? in
                    guard state.downstream != nil else { return nil }
                    if state.pending > 0 {
                        defer { state.pending = .none }
                        return state.pending
                    }
                    state.cursor = index
                    return nil
                }
                guard let resumed else { return }
                budget = resumed
            }
        }

        @inlinable
        internal func finish(_ downstream: Downstream) {
            let (live, completion) = withState { state -> (Downstream?, Subscribers.Completion<Failure>) in
                defer { state.downstream = nil }
                return (state.downstream, state.completion)
            }
            if live != nil {
                downstream.receive(completion: completion)
            }
        }

        @inlinable
        internal func cancel() {
            cancelled.store(true, ordering: .relaxed)
            let released = withState { state -> Downstream? in
                defer {
                    state.downstream = nil
                    state.cursor = nil
                }
                return state.downstream
            }
            _ = released
        }

        /// Whether the playback is over (completed or cancelled), when Combine's subscription
        /// describes itself as `Cancelled Events` and reflects no outputs.
        @usableFromInline
        internal var isOver: Bool {
            withState { $0.downstream == nil }
        }

        @usableFromInline
        internal var description: String {
            isOver ? "Cancelled Events" : String(describing: output)
        }

        @usableFromInline
        internal var customMirror: Mirror {
            let outputs = isOver ? [] : output
            return Mirror(self, children: ["sequence": outputs, "completion": withState { $0.completion }])
        }

        @usableFromInline
        internal var playgroundDescription: Any { description }
    }
}

extension Record: Sendable where Output: Sendable, Failure: Sendable {}

extension Record.Recording: Sendable where Output: Sendable, Failure: Sendable {}

extension Record.Recording: Codable where Output: Codable, Failure: Codable {
    private enum CodingKeys: String, CodingKey {
        case output
        case completion
    }

    /// Decodes a complete recording: its outputs and its completion.
    /// - Parameter decoder: The decoder to read from.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let output = try container.decode([Output].self, forKey: .output)
        let completion = try container.decode(Subscribers.Completion<Failure>.self, forKey: .completion)
        self.init(output: output, completion: completion)
    }

    /// Encodes the recording's outputs and completion.
    /// - Parameter encoder: The encoder to write to.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(output, forKey: .output)
        // Combine's coded form of a completion: `{"success": true}` or
        // `{"success": false, "error": …}`.
        try container.encode(completion, forKey: .completion)
    }

    /// Encodes the recording; the same as ``encode(to:)``, under the name Combine also offers.
    /// - Parameter encoder: The encoder to write to.
    public func encode(into encoder: any Encoder) throws {
        try encode(to: encoder)
    }
}

extension Record: Codable where Output: Codable, Failure: Codable {
    private enum CodingKeys: String, CodingKey {
        case recording
    }

    /// Decodes a record publisher from its recording.
    /// - Parameter decoder: The decoder to read from.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(recording: try container.decode(Recording.self, forKey: .recording))
    }

    /// Encodes the record publisher's recording.
    /// - Parameter encoder: The encoder to write to.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(recording, forKey: .recording)
    }
}
