import Tether

/// A publisher handed to ``PublisherConformance``, with a way to make it emit if it is hot.
///
/// A *cold* publisher (`Publishers.Sequence`, `Just`, `Record`, `Future`, an operator over one
/// of them) produces its elements itself, as demand arrives; the checker only subscribes and
/// requests. A *hot* publisher (`PassthroughSubject`, `CurrentValueSubject`, anything fed from
/// outside) produces what it is told to: the checker subscribes and requests first, then calls
/// ``send`` for each element index and ``finish`` (or ``fail``) at the end.
///
/// ```swift
/// .cold([0, 1, 2].publisher)
///
/// let subject = PassthroughSubject<Int, TestError>()
/// .hot(subject, send: { subject.send($0) },
///      finish: { subject.send(completion: .finished) },
///      fail: { subject.send(completion: .failure(TestError())) })
/// ```
public struct PublisherUnderTest<P: Publisher> {
    /// The publisher to subscribe to.
    public let publisher: P

    /// `true` when the publisher emits only what ``send`` tells it to.
    public let isHot: Bool

    /// How many elements a hot publisher already holds and gives each new subscriber on demand,
    /// before any ``send`` (1 for a `CurrentValueSubject`). The checker sends indexes from
    /// `replays` up to the element count.
    public let replays: Int

    /// Makes a hot publisher emit the element with the given index; `nil` for a cold publisher.
    public let send: ((Int) -> Void)?

    /// Makes a hot publisher finish; `nil` for a cold publisher.
    public let finish: (() -> Void)?

    /// Makes a hot publisher fail; `nil` when it cannot (or for a cold publisher, whose failing
    /// variant is a separate factory).
    public let fail: (() -> Void)?

    /// A publisher that produces its elements on demand.
    /// - Parameter publisher: The publisher; it must produce the element count given to
    ///   ``PublisherConformance/verify(elements:options:make:failing:)`` and then finish.
    /// - Returns: The publisher under test.
    public static func cold(_ publisher: P) -> PublisherUnderTest {
        PublisherUnderTest(publisher: publisher, isHot: false, replays: 0, send: nil, finish: nil, fail: nil)
    }

    /// A publisher that emits what it is told to.
    /// - Parameters:
    ///   - publisher: The publisher.
    ///   - replays: How many elements it already holds for each new subscriber (1 for a
    ///     `CurrentValueSubject`, whose current value is element 0).
    ///   - send: Emits the element with the given index. Called from several threads at once
    ///     only when ``PublisherConformance/Options/concurrentSignals`` is `true`.
    ///   - finish: Finishes the publisher.
    ///   - fail: Fails the publisher; `nil` when its failure type is `Never`.
    /// - Returns: The publisher under test.
    public static func hot(
        _ publisher: P,
        replays: Int = 0,
        send: @escaping (Int) -> Void,
        finish: @escaping () -> Void,
        fail: (() -> Void)? = nil
    ) -> PublisherUnderTest {
        PublisherUnderTest(publisher: publisher, isHot: true, replays: replays, send: send, finish: finish, fail: fail)
    }

    /// Hot publishers: sends every element not replayed, in order. Cold: nothing.
    func emit(_ elements: Int) {
        guard let send else { return }
        for index in replays..<max(replays, elements) {
            send(index)
        }
    }

    /// Hot publishers: sends every element, then finishes. Cold: nothing.
    func emitAndFinish(_ elements: Int) {
        emit(elements)
        finish?()
    }
}
