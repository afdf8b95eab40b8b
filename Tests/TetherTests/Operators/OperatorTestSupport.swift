import Tether
import TetherTesting
import XCTest

/// A reference to watch with `weak` in lifetime tests: closures capture one, so the token dies
/// exactly when the operator lets go of the closure.
final class Token {}

extension RecordingSubscriber {
    /// The whole history as text, for failures that are `any Error` or values that are tuples,
    /// whose events are not `Equatable`.
    var history: [String] { events.map(\.description) }
}

/// A publisher that describes the subscriber it is given, then finishes it at once: lets tests
/// inspect the value-type relays that operators hand upstream.
struct DescribingPublisher<Output, Failure: Error>: Publisher {
    final class Seen {
        var description = ""
        var mirrorLabels: [String] = []
    }

    let seen = Seen()

    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        seen.description = String(describing: subscriber)
        seen.mirrorLabels = Mirror(reflecting: subscriber).children.compactMap(\.label)
        subscriber.receive(subscription: Subscriptions.empty)
        subscriber.receive(completion: .finished)
    }
}

/// A publisher that keeps its one subscriber and lets the test hand it subscriptions, for the
/// contract edges `RecordingPublisher` cannot reach (a second subscription).
final class ManualPublisher<Output, Failure: Error>: Publisher {
    private(set) var subscriber: AnySubscriber<Output, Failure>?

    /// The subscriber as given, for operators that are their own subscription, to reach that
    /// subscription before it has gone downstream.
    private(set) var given: Any?

    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        self.subscriber = AnySubscriber(subscriber)
        given = subscriber
    }

    /// Forgets the subscriber.
    func release() {
        subscriber = nil
        given = nil
    }
}

extension ManualPublisher {
    /// Breaks the contract before any subscription: sends `value` and `completion` to the
    /// operator, then requests from and cancels the operator's own subscription.
    /// - Returns: The demand the operator returned for `value`.
    func signalBeforeSubscription(
        _ value: Output, _ completion: Subscribers.Completion<Failure>
    ) -> Subscribers.Demand? {
        let demand = subscriber?.receive(value)
        subscriber?.receive(completion: completion)
        let early = given as? any Subscription
        early?.request(.max(1))
        early?.cancel()
        return demand
    }

    /// Hands the operator a fresh subscription, then finishes.
    /// - Returns: What the subscription was asked.
    func subscribeAndFinish() -> [SubscriptionEvent] {
        let subscription = RecordingSubscription()
        subscriber?.receive(subscription: subscription)
        subscriber?.receive(completion: .finished)
        return subscription.events
    }
}

/// Checks that a subscription holds its subscriber for its whole life, as Combine's merge, zip and
/// combineLatest hold theirs: `attach` subscribes a fresh recorder to an operator over `upstreams`,
/// `end` ends the stream (a completion, a cancel) and may assert what the recorder saw. The
/// recorder must outlive `end`, and go with the subscription once the upstreams let go of it.
func assertHoldsItsSubscriberUntilReleased<Input>(
    over upstreams: [RecordingPublisher<Int, TestError>],
    attach: (RecordingSubscriber<Input, TestError>) -> Void,
    end: (RecordingSubscriber<Input, TestError>) -> Void,
    _ message: String, file: StaticString = #filePath, line: UInt = #line
) {
    weak var weakRecorder: RecordingSubscriber<Input, TestError>?
    weak var weakSubscription: AnyObject?
    do {
        let recorder = RecordingSubscriber<Input, TestError>()
        weakRecorder = recorder
        attach(recorder)
        weakSubscription = recorder.subscription as AnyObject
        end(recorder)
    }
    XCTAssertNotNil(weakRecorder, message, file: file, line: line)
    for upstream in upstreams { upstream.releaseSubscribers() }
    XCTAssertNil(weakSubscription, "the upstreams' relays were the last owners", file: file, line: line)
    XCTAssertNil(weakRecorder, file: file, line: line)
}
