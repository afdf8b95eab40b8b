import Tether
import TetherTesting
import XCTest

final class SinkTests: TetherTestCase {
    func testACompletionSentAgainFromInsideReceiveCompletionReachesNothing() {
        var completions: [Subscribers.Completion<Never>] = []
        var sink: Subscribers.Sink<Int, Never>?
        sink = Subscribers.Sink(
            receiveCompletion: { completion in
                completions.append(completion)
                sink?.receive(completion: completion)
            },
            receiveValue: { _ in })
        let subscription = RecordingSubscription()
        sink?.receive(subscription: subscription)
        sink?.receive(completion: .finished)
        XCTAssertEqual(completions, [.finished])
        XCTAssertEqual(subscription.events, [.requested(.unlimited)])
        sink = nil
    }
}
