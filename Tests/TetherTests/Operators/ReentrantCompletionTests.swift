import Tether
import TetherExtras
import TetherTesting
import XCTest

/// A publisher that completes from inside its subscriber's `receive(_:)`, as a hand-written
/// publisher that calls its subscriber directly can: what the subscription keeps for its values
/// (a sink's closures, a step, its subscriber) is called where it is kept, so it is let go of once
/// that value's delivery is over, never while it is still running.
final class ReentrantCompletionTests: TetherTestCase {
    /// Reports its own release.
    private final class Token {
        let onRelease: () -> Void

        init(_ onRelease: @escaping () -> Void) {
            self.onRelease = onRelease
        }

        deinit { onRelease() }
    }

    private final class Log {
        var events: [String] = []
    }

    /// A subject that calls its subscribers at once, on the sending thread, as a hand-written one
    /// does (Tether's own subjects hold a send made from inside a delivery until it is over).
    private final class DirectSubject: Subject {
        typealias Output = Int
        typealias Failure = Never

        private var subscribers: [AnySubscriber<Int, Never>] = []

        func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
            subscribers.append(AnySubscriber(subscriber))
            subscriber.receive(subscription: RecordingSubscription())
        }

        func send(_ value: Int) {
            for subscriber in subscribers { _ = subscriber.receive(value) }
        }

        func send(completion: Subscribers.Completion<Never>) {
            let finished = subscribers
            subscribers = []
            for subscriber in finished { subscriber.receive(completion: completion) }
        }

        func send(subscription: any Subscription) {
            subscription.request(.unlimited)
        }
    }

    /// Subscribes through `subscribe`, whose chain keeps `token` where the test says, lets go of
    /// every other reference to the token, then runs `send`.
    /// - Returns: What the chain logged, and when the token was released (`"<what> released"`).
    private func events(
        releasing what: String, _ subscribe: (Log, Token) -> AnyCancellable, then send: () -> Void
    ) -> [String] {
        let log = Log()
        let cancellable = subscribe(log, Token { log.events.append("\(what) released") })
        send()
        withExtendedLifetime(cancellable) {}
        return log.events
    }

    func testASinkLetsGoOfItsClosuresOnlyOnceTheValueThatCompletedItIsDelivered() {
        let publisher = RecordingPublisher<Int, Never>()
        let events = events(releasing: "closures") { log, token in
            publisher.sink(receiveCompletion: { _ in log.events.append("completion") }) { value in
                log.events.append("value \(value)")
                publisher.send(completion: .finished)
                log.events.append("value \(value) delivered")
                withExtendedLifetime(token) {}
            }
        } then: {
            _ = publisher.send(1)
        }
        XCTAssertEqual(events, ["value 1", "completion", "value 1 delivered", "closures released"])
    }

    func testATryOperatorKeepsItsStepThroughACompletionFromInsideItUntilItsUpstreamLetsGo() {
        // As Combine's: the step is kept for the relay's life, so the completion beneath it has
        // nothing to let go of; here the step holds its upstream, which holds the relay, until
        // the upstream lets go.
        let publisher = RecordingPublisher<Int, Never>()
        let log = Log()
        do {
            let token = Token { log.events.append("step released") }
            let cancellable =
                publisher
                .tryFilter { value in
                    log.events.append("step \(value)")
                    publisher.send(completion: .finished)
                    log.events.append("step \(value) done")
                    withExtendedLifetime(token) {}
                    return true
                }
                .sink(
                    receiveCompletion: { log.events.append("\($0)") },
                    receiveValue: { log.events.append("value \($0)") })
            _ = publisher.send(1)
            withExtendedLifetime(cancellable) {}
        }
        XCTAssertEqual(log.events, ["step 1", "finished", "step 1 done"])
        publisher.releaseSubscribers()
        XCTAssertEqual(log.events, ["step 1", "finished", "step 1 done", "step released"])
    }

    func testAVerdictOperatorLetsGoOfItsStepOnlyOnceTheValueThatCompletedItIsJudged() {
        let publisher = RecordingPublisher<Int, Never>()
        let events = events(releasing: "step") { log, token in
            publisher
                .removeDuplicates { _, next in
                    log.events.append("judge \(next)")
                    publisher.send(completion: .finished)
                    log.events.append("judge \(next) done")
                    withExtendedLifetime(token) {}
                    return false
                }
                .sink(
                    receiveCompletion: { log.events.append("\($0)") },
                    receiveValue: { log.events.append("value \($0)") })
        } then: {
            _ = publisher.send(1)
            _ = publisher.send(2)
        }
        XCTAssertEqual(events, ["value 1", "judge 2", "finished", "judge 2 done", "step released"])
    }

    func testAMulticastSubscriptionLetsGoOfItsSubscriberOnlyOnceTheValueThatCompletedItIsDelivered() {
        let subject = DirectSubject()
        let events = events(releasing: "subscriber") { log, token in
            RecordingPublisher<Int, Never>().multicast(subject: subject)
                .map { value in
                    withExtendedLifetime(token) {}
                    return value
                }
                .sink(receiveCompletion: { log.events.append("\($0)") }) { value in
                    log.events.append("value \(value)")
                    subject.send(completion: .finished)
                    log.events.append("value \(value) delivered")
                }
        } then: {
            subject.send(1)
        }
        XCTAssertEqual(events, ["value 1", "finished", "value 1 delivered", "subscriber released"])
    }

    func testAmbLetsGoOfItsSubscriberOnlyOnceTheValueThatCompletedItIsDelivered() {
        let winner = RecordingPublisher<Int, Never>()
        let events = events(releasing: "subscriber") { log, token in
            winner
                .amb(Empty(completeImmediately: false))
                .map { value in
                    withExtendedLifetime(token) {}
                    return value
                }
                .sink(receiveCompletion: { log.events.append("\($0)") }) { value in
                    log.events.append("value \(value)")
                    winner.send(completion: .finished)
                    log.events.append("value \(value) delivered")
                }
        } then: {
            _ = winner.send(1)
        }
        XCTAssertEqual(events, ["value 1", "finished", "value 1 delivered", "subscriber released"])
    }
}
