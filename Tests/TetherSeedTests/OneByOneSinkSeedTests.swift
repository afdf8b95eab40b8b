// Seed 002, solution two: the article's `OneByOneSink` custom subscriber, paced by a notification
// posted when the async work is done, compiled as written (its improved, Notification-based
// version; the first draft declares the same type and is superseded by it in the article).
import Foundation
import Tether
import XCTest

public extension Subscribers {
    class OneByOneSink<Input, Failure: Error>: Subscriber, Cancellable {
        let receiveValue: (Input) -> Void
        let receiveCompletion: (Subscribers.Completion<Failure>) -> Void

        var subscription: Subscription?
        var cancellable: AnyCancellable?

        public init(
            notificationName: Notification.Name,
            receiveCompletion: @escaping (Subscribers.Completion<Failure>) -> Void,
            receiveValue: @escaping (Input) -> Void
        ) {
            self.receiveCompletion = receiveCompletion
            self.receiveValue = receiveValue
            cancellable = NotificationCenter.default.publisher(for: notificationName, object: nil)
                .sink(receiveValue: { [weak self] _ in self?.resume() })
            // 在收到回调通知后,继续向 Publisher 申请新值
        }

        public func receive(subscription: Subscription) {
            self.subscription = subscription
            subscription.request(.max(1))
        }

        public func receive(_ input: Input) -> Subscribers.Demand {
            receiveValue(input)
            return .none  // 调用函数后不继续申请新值
        }

        public func receive(completion: Subscribers.Completion<Failure>) {
            receiveCompletion(completion)
        }

        public func cancel() {
            subscription?.cancel()
            subscription = nil
        }

        private func resume() {
            subscription?.request(.max(1))
        }
    }
}

public extension Publisher {
    func oneByOneSink(
        _ notificationName: Notification.Name,
        receiveCompletion: @escaping (Subscribers.Completion<Failure>) -> Void,
        receiveValue: @escaping (Output) -> Void
    ) -> Cancellable {
        let sink = Subscribers.OneByOneSink<Output, Failure>(
            notificationName: notificationName,
            receiveCompletion: receiveCompletion,
            receiveValue: receiveValue
        )
        self.subscribe(sink)
        return sink
    }
}

public extension Publisher where Failure == Never {
    func oneByOneSink(
        _ notificationName: Notification.Name,
        receiveValue: @escaping (Output) -> Void
    ) -> Cancellable where Failure == Never {
        let sink = Subscribers.OneByOneSink<Output, Failure>(
            notificationName: notificationName,
            receiveCompletion: { _ in },
            receiveValue: receiveValue
        )
        self.subscribe(sink)
        return sink
    }
}

final class OneByOneSinkSeedTests: XCTestCase {
    func testOneByOneSinkProcessesValuesSeriallyPacedByTheNotification() {
        let log = PrintLog()
        func asyncPrint(value: String) async {
            await log.begin("hello \(value)")
            try? await Task.sleep(nanoseconds: 20_000_000)
            await log.end()
        }
        var cancellables = Set<AnyCancellable>()
        let publisher = PassthroughSubject<String, Never>()
        let resumeNotification = Notification.Name("resume")

        publisher
            .buffer(size: 10, prefetch: .keepFull, whenFull: .dropOldest)
            .oneByOneSink(
                resumeNotification,
                receiveValue: { value in
                    Task {
                        await asyncPrint(value: value)
                        NotificationCenter.default.post(name: resumeNotification, object: nil)
                    }
                }
            )
            .store(in: &cancellables)

        publisher.send("fat")
        publisher.send("bob")
        publisher.send("man")
        let (lines, mostAtOnce) = waitForLines(log, count: 3)
        XCTAssertEqual(lines, ["hello fat", "hello bob", "hello man"])
        XCTAssertEqual(mostAtOnce, 1, "the next value is requested only after the notification")
        cancellables.removeAll()
    }

    func testOneByOneSinkWaitsForTheNotificationBeforeTheNextValue() {
        var received: [String] = []
        var cancellables = Set<AnyCancellable>()
        let publisher = PassthroughSubject<String, Never>()
        let resumeNotification = Notification.Name("resume-manually")
        publisher
            .buffer(size: 10, prefetch: .keepFull, whenFull: .dropOldest)
            .oneByOneSink(resumeNotification, receiveValue: { received.append($0) })
            .store(in: &cancellables)
        publisher.send("a")
        publisher.send("b")
        XCTAssertEqual(received, ["a"], "paused until the notification")
        NotificationCenter.default.post(name: resumeNotification, object: nil)
        XCTAssertEqual(received, ["a", "b"])
        cancellables.removeAll()
    }
}
