extension Ledger {
    /// Where a subscriber was attached, as recorded in debug builds by `sink`, `assign` and
    /// `subscribe`: the types of the publishers it was attached to and, from the entry points
    /// that can take it (TetherExtras' own), the call's file and line.
    ///
    /// Only metatypes and a static string are stored, so recording costs no formatting; the
    /// names are worked out when a snapshot is taken.
    @usableFromInline
    package struct Origin: Sendable {
        var chain: [Any.Type]
        var file: StaticString?
        var line: UInt?
    }

    /// A scope opened by ``Ledger/withScope(_:)``.
    package struct Scope: Hashable, Sendable {
        /// The scope's number; zero in release builds.
        package let id: UInt64

        package init(id: UInt64) {
            self.id = id
        }
    }

    /// One live subscription object in a ``Ledger/snapshot()``.
    package struct Entry: Hashable, Sendable, CustomStringConvertible {
        /// The object's type, without its module or generic arguments, for example
        /// `Subscribers.Sink` or `Publishers.Print.Inner`.
        package let type: String

        /// The subscriber and the publishers it is attached to, downstream first, for example
        /// `Sink ← Map ← PassthroughSubject`; just the type's last name when no origin was
        /// recorded.
        package let chain: String

        /// The file (`#fileID`) of the call that made the object, when its entry point records
        /// one (TetherExtras' `sink(weak:)`, `assign(to:on:ownership:)`, `create`); Combine's
        /// `sink`, `assign(to:on:)` and `subscribe(_:)` record only the chain.
        package let file: String?

        /// The line of that call, when recorded.
        package let line: UInt?

        /// The order in which objects entered the ledger: later objects have larger serials.
        package let serial: UInt64

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
                file = origin.file.map { "\($0)" }
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
        package var description: String {
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
