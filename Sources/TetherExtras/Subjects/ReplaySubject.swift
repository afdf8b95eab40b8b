import TetherCore

extension Publisher {
    /// Shares the output of an upstream publisher with multiple subscribers, replaying the last
    /// `bufferSize` values to each new subscriber.
    ///
    /// Like ``share()``, the returned publisher is a class whose subscribers share one
    /// subscription to the upstream, made when the first subscriber attaches and cancelled when
    /// every attached subscriber has cancelled; it multicasts through a ``ReplaySubject``, created
    /// once, so a subscriber that attaches later first receives up to `bufferSize` of the most
    /// recent values, then the live ones, and the completion if the upstream has completed.
    /// Each subscriber's demand is honoured separately (see ``ReplaySubject``); the upstream is
    /// asked for `.unlimited` when connected. Failures pass through unchanged. Values are
    /// delivered on the thread that delivers them upstream; replayed values on the thread that
    /// subscribes or requests.
    /// - Parameter bufferSize: How many of the most recent values to replay; zero or more.
    /// - Returns: A class instance that shares and replays elements received from its upstream.
    @inlinable
    public func share(
        replay bufferSize: Int
    ) -> Publishers.Autoconnect<Publishers.Multicast<Self, ReplaySubject<Output, Failure>>> {
        precondition(bufferSize >= 0, "Replay buffer size must not be negative: share(replay:) got \(bufferSize)")
        return multicast { ReplaySubject(bufferSize: bufferSize) }.autoconnect()
    }
}

/// A subject that remembers the last `bufferSize` values it was sent and replays them to each new
/// subscriber before the live values.
///
/// A new subscriber is owed the buffered values, oldest first; it receives them as it requests
/// them, then live values. Demand is honoured per subscriber: a value sent to a subscriber with no
/// outstanding demand is not dropped but kept among the at most `bufferSize` values owed to it,
/// the oldest giving way (with a buffer of one this is ``CurrentValueSubject``'s behaviour; with
/// zero, ``PassthroughSubject``'s). The completion reaches a subscriber after the values owed to
/// it. A subscriber that attaches after the completion receives the buffer, then the completion.
///
/// `send` may be called from any thread. Each subscriber receives its signals one at a time: a
/// thread that sends while another is delivering to the subscriber waits for that call to return
/// and then delivers its own value, unless the subscriber has no demand, in which case the value
/// joins those owed at once and the send returns without waiting (as a ``PassthroughSubject``'s
/// send that finds no demand returns at once); a value sent from inside the subscriber's
/// `receive`, on its thread, is delivered at once, nested in that call, as ``PassthroughSubject``
/// does; owed values are delivered by the thread that requests them, or by the delivering thread
/// the demand for them is returned to.
/// Subscribed to an upstream (``Publisher/subscribe(_:)-(S)``), it asks for `.unlimited`
/// at once, so that it records values even before anyone subscribes to it.
public final class ReplaySubject<Output, Failure: Error>: Subject, SubjectConduitParent, @unchecked Sendable {
    @usableFromInline
    internal struct State {
        @usableFromInline var hub = SubjectHub<Output, Failure>()
        /// The last `bufferSize` values sent, oldest first.
        @usableFromInline var buffer = RingBuffer<Output>()

        @inlinable
        init() {}
    }

    @usableFromInline
    internal let state = Locked(State())

    /// How many of the most recent values the subject replays to a new subscriber.
    public let bufferSize: Int

    /// Creates a subject that replays up to `bufferSize` of the most recent values.
    /// - Parameter bufferSize: How many values to keep and replay; zero or more.
    public init(bufferSize: Int) {
        precondition(bufferSize >= 0, "Replay buffer size must not be negative: ReplaySubject got \(bufferSize)")
        self.bufferSize = bufferSize
    }

    deinit {
        for upstream in state.withLock({ $0.hub.upstreams }) {
            upstream.cancel()
        }
    }

    /// Attaches `subscriber`, owing it the buffered values; after the completion it receives the
    /// buffer, then the completion. A completion sent from another thread while it is being
    /// attached reaches it after its subscription.
    /// - Parameter subscriber: The subscriber to attach.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        // The buffer is taken under the lock that attaches, so no send can slip between.
        let capacity = bufferSize
        let conduit = state.withLock { state -> ReplaySubscription<S> in
            let completion = state.hub.completion
            let conduit = ReplaySubscription(
                downstream: subscriber, parent: completion == nil ? self : nil, capacity: capacity,
                backlog: state.buffer, completion: completion)
            _ = state.hub.attach(SubjectEntry(replay: conduit))
            return conduit
        }
        conduit.start(subscriber)
    }

    /// Records `input` in the buffer and sends it to every subscriber; ignored after completion.
    /// - Parameter input: The value to send.
    @inlinable
    public func send(_ input: Output) {
        let capacity = bufferSize
        let receivers = state.withLock { state -> SubjectReceivers<Output, Failure> in
            guard !state.hub.isCompleted else { return SubjectReceivers() }
            state.buffer.append(input, keepingAtMost: capacity)
            return state.hub.receivers
        }
        receivers.offer(input)
    }

    /// Sends the completion to every subscriber, after the values each is owed; only the first
    /// completion counts. The buffer is kept for later subscribers.
    /// - Parameter completion: How the subject finished.
    public func send(completion: Subscribers.Completion<Failure>) {
        guard let conduits = state.withLock({ $0.hub.complete(completion) }) else { return }
        for entry in conduits {
            entry.conduit.finish(completion)
        }
    }

    /// Keeps `subscription` as an upstream and asks it for `.unlimited` at once.
    /// - Parameter subscription: The upstream subscription.
    public func send(subscription: any Subscription) {
        _ = state.withLock { $0.hub.receive(upstream: subscription) }
        subscription.request(.unlimited)
    }

    @usableFromInline
    package func detach(_ conduit: AnyObject) {
        _ = state.withLock { $0.hub.detach(conduit) }
    }

    @usableFromInline
    package func acknowledgeDownstreamDemand() {}
}
