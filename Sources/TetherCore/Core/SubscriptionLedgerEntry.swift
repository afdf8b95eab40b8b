extension SubscriptionLedger {
    /// Where a subscriber was attached, as recorded in debug builds by `sink`, `assign` and
    /// `subscribe`: the call's file and line and the types of the publishers it was attached to.
    ///
    /// Only metatypes and a static string are stored, so recording costs no formatting; the
    /// names are worked out when a snapshot is taken.
    @usableFromInline
    internal struct Origin: Sendable {
        var chain: [Any.Type]
        var file: StaticString
        var line: UInt
    }

    /// A scope opened by ``SubscriptionLedger/withScope(_:)``.
    public struct Scope: Hashable, Sendable {
        /// The scope's number; zero in release builds.
        public let id: UInt64
    }

    /// One live subscription object in a ``SubscriptionLedger/snapshot()``.
    public struct Entry: Hashable, Sendable, CustomStringConvertible {
        /// The object's type, without its module or generic arguments, for example
        /// `Subscribers.Sink` or `Publishers.Print.Inner`.
        public let type: String

        /// The subscriber and the publishers it is attached to, downstream first, for example
        /// `Sink ← Map ← PassthroughSubject`; just the type's last name when no origin was
        /// recorded.
        public let chain: String

        /// The file (`#fileID`) of the `sink`, `assign` or `subscribe` call that made the
        /// object, when recorded.
        public let file: String?

        /// The line of that call, when recorded.
        public let line: UInt?

        /// The order in which objects entered the ledger: later objects have larger serials.
        public let serial: UInt64

        #if DEBUG
        init(_ record: Record) {
            let name = Self.plainName(String(reflecting: record.type))
            type = name
            if let origin = record.origin {
                let subscriber = name.split(separator: ".").last.map(String.init) ?? name
                let publishers = origin.chain
                    .map { Self.plainName(String(reflecting: $0)).split(separator: ".").last.map(String.init) ?? "" }
                    .filter { $0 != "PublisherBox" }
                chain = ([subscriber] + publishers).joined(separator: " ← ")
                file = "\(origin.file)"
                line = origin.line
            } else {
                chain = name.split(separator: ".").last.map(String.init) ?? name
                file = nil
                line = nil
            }
            serial = record.serial
        }
        #endif

        /// `chain`, then `made at file:line` when known.
        public var description: String {
            guard let file, let line else { return chain }
            return "\(chain) (made at \(file):\(line))"
        }

        /// A reflected type name without its generic arguments and module:
        /// `TetherCore.Publishers.Map<…>` becomes `Publishers.Map`.
        static func plainName(_ reflected: String) -> String {
            var result = ""
            var depth = 0
            for character in reflected {
                if character == "<" {
                    depth += 1
                } else if character == ">" {
                    depth -= 1
                } else if depth == 0 {
                    result.append(character)
                }
            }
            // Drops the module, and the `(unknown context at …)` of types local to a function.
            var parts = result.split(separator: ".").map(String.init)
            if parts.count > 1 { parts.removeFirst() }
            parts.removeAll { $0.hasPrefix("(") || $0.hasSuffix(")") }
            return parts.joined(separator: ".")
        }
    }
}
