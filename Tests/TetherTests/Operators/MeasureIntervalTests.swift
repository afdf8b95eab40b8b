import Tether
import TetherTesting
import XCTest

final class MeasureIntervalTests: TetherTestCase {
    func testDemandReturnedForAnIntervalIsRequestedUpstream() {
        let publisher = RecordingPublisher<Int, TestError>()
        let recorder = RecordingSubscriber<ImmediateScheduler.SchedulerTimeType.Stride, TestError>(
            demand: .max(1), demandPerValue: { _ in .max(2) })
        publisher.measureInterval(using: ImmediateScheduler.shared).subscribe(recorder)
        XCTAssertEqual(publisher.send(7), [.none])
        recorder.subscription?.request(.none)
        publisher.send(completion: .failure(TestError(id: 1)))
        XCTAssertEqual(recorder.events, [.subscription, .value(.zero), .completion(.failure(TestError(id: 1)))])
        XCTAssertEqual(recorder.subscriptionDescriptions, ["MeasureInterval"])
        XCTAssertEqual(publisher.subscription?.events, [.requested(.max(1)), .requested(.max(2)), .requested(.none)])
        publisher.releaseSubscribers()
    }

    func testCancelEndsTheIntervalsAndASecondSubscriptionIsCancelled() {
        let publisher = ManualPublisher<Int, Never>()
        let recorder = RecordingSubscriber<ImmediateScheduler.SchedulerTimeType.Stride, Never>()
        publisher.measureInterval(using: ImmediateScheduler.shared).subscribe(recorder)
        let first = RecordingSubscription(), second = RecordingSubscription()
        publisher.subscriber?.receive(subscription: first)
        publisher.subscriber?.receive(subscription: second)
        recorder.cancel()
        recorder.cancel()
        XCTAssertEqual(publisher.subscriber?.receive(1), Subscribers.Demand.none)
        publisher.subscriber?.receive(completion: .finished)
        XCTAssertEqual(recorder.events, [.subscription])
        XCTAssertEqual(first.events, [.requested(.unlimited), .cancelled])
        XCTAssertEqual(second.events, [.cancelled])
        publisher.release()
    }

    func testCancelBeforeTheSubscriptionIsIgnored() {
        let publisher = ManualPublisher<Int, Never>()
        let recorder = RecordingSubscriber<ImmediateScheduler.SchedulerTimeType.Stride, Never>(demand: .max(3))
        publisher.measureInterval(using: ImmediateScheduler.shared).subscribe(recorder)
        XCTAssertEqual(publisher.signalBeforeSubscription(1, .finished), Subscribers.Demand.none)
        XCTAssertEqual(publisher.subscribeAndFinish(), [.requested(.max(3))])
        XCTAssertEqual(recorder.events, [.subscription, .completion(.finished)])
        publisher.release()
    }
}
