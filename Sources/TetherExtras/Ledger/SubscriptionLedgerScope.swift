extension SubscriptionLedger {
    /// A scope opened by ``SubscriptionLedger/withScope(_:)``.
    public struct Scope: Hashable, Sendable {
        /// The scope's number; zero in release builds.
        public let id: UInt64
    }
}
