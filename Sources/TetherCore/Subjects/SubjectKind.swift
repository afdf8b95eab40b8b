/// The subjects a ``SubjectSubscription`` serves, which name it and say whether it keeps the
/// latest value: one byte in its state where the name as a `StaticString` took seventeen.
@usableFromInline
package enum SubjectKind: UInt8, Sendable {
    case passthroughSubject
    case currentValueSubject
    case publishedSubject

    /// The subscription's description, as Combine's.
    @usableFromInline
    package var name: StaticString {
        switch self {
        case .passthroughSubject: "PassthroughSubject"
        case .currentValueSubject: "CurrentValueSubject"
        case .publishedSubject: "PublishedSubject"
        }
    }

    /// Whether the subscription owes the subject's current value on first demand, and keeps a
    /// value offered without demand in its place rather than dropping it (`CurrentValueSubject`
    /// and `@Published`).
    @inlinable
    package var keepsLatest: Bool { self != .passthroughSubject }
}
