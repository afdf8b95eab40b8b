/// The subjects a ``SubjectSubscription`` serves, which name it: one byte in its state where the
/// name as a `StaticString` took seventeen.
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
}
