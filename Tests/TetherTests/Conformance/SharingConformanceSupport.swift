import Tether
import TetherTesting

/// A `PassthroughSubject` that cannot fail, fed with its element indexes (for
/// `makeConnectable()`, which needs `Failure == Never`).
func neverPassthroughUnderTest() -> PublisherUnderTest<PassthroughSubject<Int, Never>> {
    let subject = PassthroughSubject<Int, Never>()
    return .hot(subject, send: { subject.send($0) }, finish: { subject.send(completion: .finished) })
}

/// Connects a connectable publisher under test and keeps the connection for as long as the
/// checker keeps the publisher under test: the send and finish closures hold it.
func connected<P: ConnectablePublisher>(_ source: PublisherUnderTest<P>) -> PublisherUnderTest<P> {
    let connection = UncheckedBox(source.publisher.connect())
    guard let send = source.send, let finish = source.finish else { return source }
    let fail = source.fail.map { fail in { withExtendedLifetime(connection) { fail() } } }
    return .hot(
        source.publisher, replays: source.replays,
        send: { index in withExtendedLifetime(connection) { send(index) } },
        finish: { withExtendedLifetime(connection) { finish() } }, fail: fail)
}

/// A text stream that drops everything, for `print` rows.
struct DiscardingStream: TextOutputStream {
    mutating func write(_ string: String) {}
}

extension PublisherConformance.Options {
    /// Tether's synchronous publishers whose `request(.none)` is ignored and which hold their
    /// subscriber for the subscription's whole life, as Combine's `buffer` and
    /// `drop(untilOutputFrom:)` do (their lifecycle tests in OpenCombine's suite).
    static var tetherIgnoringZeroDemand: Self {
        Self(
            zeroDemand: .ignored, concurrentSignals: true, cancellation: .immediate,
            subscriberRelease: .withTheSubscription)
    }

    /// Tether's options for `multicast` and `share`, whose subscriptions ignore
    /// `request(.none)` as Combine's do.
    static var multicastIgnoringZeroDemand: Self {
        Self(zeroDemand: .ignored, multicast: true, concurrentSignals: true, cancellation: .immediate)
    }
}
