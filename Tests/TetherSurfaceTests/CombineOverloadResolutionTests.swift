import Tether
import XCTest

// Code written for Combine overloads Combine's entry points with extra defaulted parameters of
// its own and calls Combine's forms from them (CombineExt's `assign(to:on:ownership:)` calls
// `assign(to:on:)`). Against Combine those calls resolve to Combine's methods; they must resolve
// to Tether's, not back into the overload (which would recurse until the stack overflows).

private enum Overload {
    nonisolated(unsafe) static var calls: [String] = []
}

extension Publisher {
    fileprivate func sink(
        receiveCompletion: @escaping (Subscribers.Completion<Failure>) -> Void,
        receiveValue: @escaping (Output) -> Void,
        tag: String = "own"
    ) -> AnyCancellable {
        Overload.calls.append("sink(receiveCompletion:receiveValue:tag:) \(tag)")
        return sink(receiveCompletion: receiveCompletion, receiveValue: receiveValue)
    }

    // In the same (unconstrained) extension context as Combine's `subscribe(_:)`: one declared
    // `where Failure == Never` would be more specialised and win against Combine too.
    fileprivate func subscribe<S: Subscriber>(_ subscriber: S, tag: String = "own")
    where S.Input == Output, S.Failure == Failure {
        Overload.calls.append("subscribe(_:tag:) \(tag)")
        subscribe(subscriber)
    }
}

extension Publisher where Failure == Never {
    fileprivate func sink(receiveValue: @escaping (Output) -> Void, tag: String = "own") -> AnyCancellable {
        Overload.calls.append("sink(receiveValue:tag:) \(tag)")
        return sink(receiveValue: receiveValue)
    }

    fileprivate func assign<Root: AnyObject>(
        to keyPath: ReferenceWritableKeyPath<Root, Output>, on object: Root, weakly: Bool = false
    ) -> AnyCancellable {
        Overload.calls.append("assign(to:on:weakly:) \(weakly)")
        return assign(to: keyPath, on: object)
    }
}

private final class Target {
    var values: [Int] = []
    var value = 0 {
        didSet { values.append(value) }
    }
}

final class CombineOverloadResolutionTests: XCTestCase {
    override func setUp() {
        Overload.calls = []
    }

    func testOwnSinkOverloadsCallTethersSinkOnce() {
        var received: [String] = []
        let first = [1, 2].publisher.sink(
            receiveCompletion: { received.append("completion \($0)") },
            receiveValue: { received.append("value \($0)") },
            tag: "explicit")
        let second = [3].publisher.sink(receiveValue: { received.append("value \($0)") }, tag: "explicit")
        XCTAssertEqual(
            Overload.calls,
            ["sink(receiveCompletion:receiveValue:tag:) explicit", "sink(receiveValue:tag:) explicit"])
        XCTAssertEqual(received, ["value 1", "value 2", "completion finished", "value 3"])
        _ = (first, second)
    }

    func testOwnAssignOverloadCallsTethersAssignOnce() {
        let target = Target()
        let cancellable = [4, 5].publisher.assign(to: \.value, on: target, weakly: true)
        XCTAssertEqual(Overload.calls, ["assign(to:on:weakly:) true"])
        XCTAssertEqual(target.values, [4, 5])
        _ = cancellable
    }

    func testOwnSubscribeOverloadCallsTethersSubscribeOnce() {
        let target = Target()
        [6].publisher.subscribe(Subscribers.Assign(object: target, keyPath: \.value), tag: "explicit")
        XCTAssertEqual(Overload.calls, ["subscribe(_:tag:) explicit"])
        XCTAssertEqual(target.values, [6])
    }

    func testMethodReferencesHaveCombinesTypes() {
        let publisher = Just(7)
        let sinkValue: (@escaping (Int) -> Void) -> AnyCancellable = publisher.sink(receiveValue:)
        let assign: (ReferenceWritableKeyPath<Target, Int>, Target) -> AnyCancellable = publisher.assign(to:on:)
        let target = Target()
        var received: [Int] = []
        let first = sinkValue { received.append($0) }
        let second = assign(\.value, target)
        XCTAssertEqual(received, [7])
        XCTAssertEqual(target.values, [7])
        XCTAssertEqual(Overload.calls, [])
        _ = (first, second)
    }
}
