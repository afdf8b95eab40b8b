import TetherCore

extension SubscriptionLedger {
    /// One live subscription object in a ``SubscriptionLedger/snapshot()``.
    public struct Entry: Hashable, Sendable, CustomStringConvertible {
        /// The object's type, without its module or generic arguments, for example
        /// `Subscribers.Sink` or `Publishers.Print.Inner`.
        public let type: String

        /// The subscriber and the publishers it is attached to, downstream first, for example
        /// `Sink ← Map ← PassthroughSubject`; just the type's last name when no chain was
        /// recorded.
        public let chain: String

        /// The file (`#fileID`) of the call that made the object, when its entry point takes
        /// one: TetherExtras' `sink(weak:…)` and `assign(to:on:ownership:)` do; Combine's `sink`,
        /// `assign(to:on:)` and `subscribe(_:)` do not, and their entries have only a chain.
        public let file: String?

        /// The line of that call, when recorded.
        public let line: UInt?

        /// The order in which objects entered the ledger: later objects have larger serials.
        public let serial: UInt64

        init(_ entry: Ledger.Entry) {
            type = entry.type
            chain = entry.chain
            file = entry.file
            line = entry.line
            serial = entry.serial
        }

        /// `chain`, then `made at file:line` when known.
        public var description: String {
            guard let file, let line else { return chain }
            return "\(chain) (made at \(file):\(line))"
        }
    }
}
