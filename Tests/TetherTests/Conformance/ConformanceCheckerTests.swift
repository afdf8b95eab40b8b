import Tether
import TetherTesting
import XCTest

/// The checkers themselves: a conforming publisher passes, and each deliberate fault is caught
/// under its rule.
final class ConformanceCheckerTests: TetherTestCase {
    /// Short waits: a faulty publisher often never does what a check waits for.
    private let options = PublisherConformance.Options(zeroDemand: .ignored, concurrentSignals: true, timeout: 0.05)

    private func rules(_ fault: FaultyPublisher.Fault, options: PublisherConformance.Options? = nil) -> Set<String> {
        let violations = PublisherConformance.verify(elements: 5, options: options ?? self.options) {
            FaultyPublisher(elements: 5, fault: fault)
        }
        return Set(violations.map(\.rule))
    }

    func testAConformingPublisherPasses() {
        XCTAssertEqual(
            PublisherConformance.verify(elements: 5, options: options) { FaultyPublisher(elements: 5, fault: .none) },
            [])
    }

    func testValuesBeyondDemandBreakRule1_1() {
        XCTAssertTrue(rules(.ignoresDemand).contains("1.1"))
    }

    func testMissingOrRepeatedSubscriptionBreaksRule1_9() {
        XCTAssertTrue(rules(.noSubscription).contains("1.9"))
        XCTAssertTrue(rules(.twoSubscriptions).contains("1.9"))
    }

    func testOverlappingDeliveryFromTwoThreadsBreaksRule1_3() {
        XCTAssertTrue(rules(.unsynchronized).contains("1.3"))
    }

    func testSignalsAfterTheCompletionBreakRule1_7() {
        XCTAssertTrue(rules(.signalsAfterCompletion).contains("1.7"))
    }

    func testAFiniteStreamWithoutCompletionBreaksRule1_5() {
        XCTAssertTrue(rules(.neverFinishes).contains("1.5"))
    }

    func testRecursiveDeliveryBreaksRule3_3() {
        XCTAssertTrue(rules(.recurses).contains("3.3"))
    }

    func testSignalsAfterCancelBreakRules3_6And3_12() {
        let found = rules(.deliversAfterCancel)
        XCTAssertTrue(found.contains("3.6"), "\(found)")
        XCTAssertTrue(found.contains("3.12"), "\(found)")
    }

    func testHoldingTheSubscriberBreaksRule3_13() {
        XCTAssertTrue(rules(.keepsSubscriberAfterCancel).contains("3.13"))
        XCTAssertTrue(rules(.keepsSubscriberAfterCompletion).contains("3.13"))
    }

    func testReplacedDemandBreaksRule3_8() {
        XCTAssertTrue(rules(.replacesDemand).contains("3.8"))
    }

    func testWrappingDemandBreaksRule3_17() {
        XCTAssertTrue(rules(.wrapsDemand).contains("3.17"))
    }

    func testDeliveringOnZeroDemandBreaksRule3_9() {
        XCTAssertTrue(rules(.deliversOnZeroDemand).contains("3.9"))
    }

    func testDivergingSubscribersOfAMulticastPublisherBreakRule1_11() {
        let violations = PublisherConformance.verify(elements: 3, options: .init(multicast: true, timeout: 0.05)) {
            DivergingPublisher()
        }
        XCTAssertTrue(violations.map(\.rule).contains("1.11"), "\(violations)")
    }

    func testAFailingPublisherThatFinishesBreaksRule1_4() {
        let violations = PublisherConformance.verify(
            elements: 3, options: options, make: { FaultyPublisher(elements: 3, fault: .none) },
            failing: { FaultyPublisher(elements: 3, fault: .none) })
        XCTAssertEqual(violations.map(\.rule), ["1.4"])
    }

    func testAZeroDemandThatDoesNotTrapIsReportedFromTheChildProcess() {
        let trap = ChildProcessTrap(
            test: "TetherTests.ConformanceCheckerTests/testAZeroDemandThatDoesNotTrapIsReportedFromTheChildProcess",
            id: "faulty")
        let violations = PublisherConformance.verifyZeroDemandTraps(trap) {
            PublisherUnderTest.cold(FaultyPublisher(elements: 3, fault: .none))
        }
        XCTAssertEqual(violations.map(\.rule), ["3.9"])
        XCTAssertTrue(violations.first?.message.contains("returned normally") ?? false, "\(violations)")
    }

    func testAWrongTestNameIsReportedNotMistakenForATrap() {
        let trap = ChildProcessTrap(test: "TetherTests.NoSuchTests/testNothing", id: "missing")
        let violations = PublisherConformance.verifyZeroDemandTraps(trap) { PublisherUnderTest.cold([1].publisher) }
        XCTAssertEqual(violations.map(\.rule), ["3.9"])
    }

    // MARK: Subscribers

    func testSinkAndAnySubscriberKeepTheSubscriberContract() {
        assertSubscriberConformance(
            "Subscribers.Sink",
            make: { Subscribers.Sink<Int, TestError>(receiveCompletion: { _ in }, receiveValue: { _ in }) },
            value: { $0 }, failure: TestError(id: 1), cancel: { $0.cancel() })

        var sinks: [CombineIdentifier: Subscribers.Sink<Int, TestError>] = [:]
        assertSubscriberConformance(
            "AnySubscriber(Sink)",
            make: { () -> AnySubscriber<Int, TestError> in
                let sink = Subscribers.Sink<Int, TestError>(receiveCompletion: { _ in }, receiveValue: { _ in })
                sinks[sink.combineIdentifier] = sink
                return AnySubscriber(sink)
            },
            value: { $0 }, failure: TestError(id: 1), cancel: { sinks[$0.combineIdentifier]?.cancel() })
        sinks.removeAll()

        assertSubscriberConformance(
            "AnySubscriber(closures)",
            make: { () -> AnySubscriber<Int, Never> in
                let held = ClosureState()
                return AnySubscriber(
                    receiveSubscription: { subscription in
                        if held.subscription == nil {
                            held.subscription = subscription
                            subscription.request(.max(2))
                        } else {
                            subscription.cancel()
                        }
                    },
                    receiveValue: { _ in .max(1) },
                    receiveCompletion: { _ in held.subscription = nil })
            },
            value: { $0 })
    }

    func testAClosureSubscriberThatIgnoresTheRulesIsCaught() {
        let violations = SubscriberConformance.verify(
            make: {
                AnySubscriber<Int, Never>(
                    receiveSubscription: { _ in },
                    receiveValue: { _ in .none })
            },
            value: { $0 })
        XCTAssertEqual(Set(violations.map(\.rule)), ["2.1", "2.5"], "\(violations)")

        let chatty = SubscriberConformance.verify(
            make: { ChattySubscriber() }, value: { $0 }, cancel: { $0.cancel() })
        XCTAssertEqual(Set(chatty.map(\.rule)), ["2.3", "2.5", "2.8", "3.9", "Combine"], "\(chatty)")
    }
}

/// What a closure-built subscriber keeps between calls.
private final class ClosureState {
    var subscription: (any Subscription)?
}

/// A "multicast" publisher whose subscribers each get a different sequence.
private final class DivergingPublisher: Publisher, @unchecked Sendable {
    typealias Output = Int
    typealias Failure = Never

    private var subscribers = 0

    func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
        subscribers += 1
        let offset = subscribers * 100
        (0..<3).map { $0 + offset }.publisher.receive(subscriber: subscriber)
    }
}

/// A subscriber that breaks several rules: it requests `.none`, keeps every subscription
/// without cancelling it, never lets go, and calls back from `receive(completion:)`.
private final class ChattySubscriber: Subscriber, Cancellable {
    typealias Input = Int
    typealias Failure = Never

    private var subscriptions: [any Subscription] = []

    func receive(subscription: any Subscription) {
        subscriptions.append(subscription)
        subscription.request(.none)
        subscription.request(.max(1))
    }

    func receive(_ input: Int) -> Subscribers.Demand { .none }

    func receive(completion: Subscribers.Completion<Never>) {
        subscriptions.first?.request(.max(1))
    }

    /// Forgets to tell the subscription.
    func cancel() {}
}
