import Foundation
import Tether
import TetherTesting

/// A hot publisher that never completes, with one deliberate fault, to prove that the checks
/// under `termination: .never` can fail.
final class EndlessBroadcaster: Publisher, @unchecked Sendable {
    typealias Output = Int
    typealias Failure = Never

    enum Fault {
        case none
        /// `cancel()` does nothing: sends keep reaching the subscriber.
        case sendsAfterCancel
        /// Every send reaches every subscriber, even one that requested nothing.
        case ignoresDemand
    }

    private let fault: Fault
    private let lock = NSLock()
    private var links: [EndlessLink] = []

    init(fault: Fault) {
        self.fault = fault
    }

    func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
        let link = EndlessLink(downstream: AnySubscriber(subscriber), fault: fault)
        lock.withLock { links.append(link) }
        subscriber.receive(subscription: link)
    }

    func send(_ value: Int) {
        for link in lock.withLock({ links }) {
            link.deliver(value)
        }
    }

    /// The broadcaster under test, fed with its element indexes; it has no completion.
    static func underTest(_ fault: Fault) -> PublisherUnderTest<EndlessBroadcaster> {
        let broadcaster = EndlessBroadcaster(fault: fault)
        return .hot(broadcaster, send: { broadcaster.send($0) }, finish: {})
    }
}

final class EndlessLink: Subscription, @unchecked Sendable {
    private let lock = NSLock()
    private var downstream: AnySubscriber<Int, Never>?
    private var demand = Subscribers.Demand.none
    private let fault: EndlessBroadcaster.Fault

    init(downstream: AnySubscriber<Int, Never>, fault: EndlessBroadcaster.Fault) {
        self.downstream = downstream
        self.fault = fault
    }

    func request(_ requested: Subscribers.Demand) {
        lock.withLock { demand += requested }
    }

    func cancel() {
        guard fault != .sendsAfterCancel else { return }
        lock.withLock { downstream = nil }
    }

    /// Delivers `value` if there is demand for it (or regardless, under `.ignoresDemand`),
    /// calling out without the lock.
    func deliver(_ value: Int) {
        let target = lock.withLock { () -> AnySubscriber<Int, Never>? in
            guard let downstream else { return nil }
            if fault != .ignoresDemand {
                guard demand > 0 else { return nil }
                demand -= 1
            }
            return downstream
        }
        guard let target else { return }
        let more = target.receive(value)
        lock.withLock { demand += more }
    }
}
