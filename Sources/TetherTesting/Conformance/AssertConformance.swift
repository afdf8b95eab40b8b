import Tether
import XCTest

/// Fails the current test once per contract violation of a cold publisher; see
/// ``PublisherConformance/verify(elements:options:make:failing:)``.
/// - Parameters:
///   - name: A name for the publisher, prefixed to each failure.
///   - elements: How many elements each publisher from `make` produces before it finishes.
///   - options: Where the publisher's behaviour may legitimately differ.
///   - make: Makes a fresh publisher; called once per check.
///   - failing: Makes a publisher of the same type that fails; `nil` skips the §1.4 check.
///   - file: The file to attribute failures to.
///   - line: The line to attribute failures to.
public func assertConformance<P: Publisher>(
    _ name: String,
    elements: Int,
    options: PublisherConformance.Options = .init(),
    make: @escaping () -> P,
    failing: (() -> P)? = nil,
    file: StaticString = #filePath,
    line: UInt = #line
) {
    let violations = PublisherConformance.verify(elements: elements, options: options, make: make, failing: failing)
    report(violations, of: name, file: file, line: line)
}

/// Fails the current test once per contract violation of a publisher under test (hot or cold);
/// see ``PublisherConformance/verify(elements:options:make:)``.
/// - Parameters:
///   - name: A name for the publisher, prefixed to each failure.
///   - elements: How many elements an early subscriber with unlimited demand sees.
///   - options: Where the publisher's behaviour may legitimately differ.
///   - make: Makes a fresh publisher under test; called once per check.
///   - file: The file to attribute failures to.
///   - line: The line to attribute failures to.
public func assertConformance<P: Publisher>(
    _ name: String,
    elements: Int,
    options: PublisherConformance.Options = .init(),
    make: @escaping () -> PublisherUnderTest<P>,
    file: StaticString = #filePath,
    line: UInt = #line
) {
    let violations = PublisherConformance.verify(elements: elements, options: options, make: make)
    report(violations, of: name, file: file, line: line)
}

/// Fails the current test once per contract violation of a subscriber; see
/// ``SubscriberConformance/verify(values:make:value:failure:requestDemand:cancel:)``.
/// - Parameters:
///   - name: A name for the subscriber, prefixed to each failure.
///   - make: Makes a fresh subscriber; called once per check.
///   - value: Makes the value with the given index.
///   - failure: A failure to complete with; `nil` skips the §2.10 checks.
///   - requestDemand: Asks the subscriber to request demand, if it needs asking.
///   - cancel: Makes the subscriber cancel; `nil` skips the cancellation checks.
///   - file: The file to attribute failures to.
///   - line: The line to attribute failures to.
public func assertSubscriberConformance<S: Subscriber>(
    _ name: String,
    make: () -> S,
    value: (Int) -> S.Input,
    failure: S.Failure? = nil,
    requestDemand: ((S) -> Void)? = nil,
    cancel: ((S) -> Void)? = nil,
    file: StaticString = #filePath,
    line: UInt = #line
) {
    let violations = SubscriberConformance.verify(
        make: make, value: value, failure: failure, requestDemand: requestDemand, cancel: cancel)
    report(violations, of: name, file: file, line: line)
}

private func report(_ violations: [ConformanceViolation], of name: String, file: StaticString, line: UInt) {
    for violation in violations {
        XCTFail("\(name): \(violation)", file: file, line: line)
    }
}
