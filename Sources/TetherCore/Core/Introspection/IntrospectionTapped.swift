/// A subscriber that may be, or wrap, the ``IntrospectedSubscriber`` that `subscribe(_:)`
/// injected, so that a second `subscribe(_:)` of the same subscriber does not wrap it again.
internal protocol IntrospectionTapped {
    /// The subscriber that the injected wrapper forwards to, as an ``AnySubscriber``; `nil` when
    /// there is no injected wrapper.
    var introspectedSubscriber: Any? { get }
}

extension AnySubscriber: IntrospectionTapped {
    internal var introspectedSubscriber: Any? { (box as? any IntrospectionTapped)?.introspectedSubscriber }
}

extension SubscriberBox: IntrospectionTapped {
    internal var introspectedSubscriber: Any? { (base as? any IntrospectionTapped)?.introspectedSubscriber }
}
