extension Subscribers {
    /// A signal that a publisher doesn't produce additional elements, either due to normal
    /// completion or an error.
    @frozen
    public enum Completion<Failure: Error> {
        /// The publisher finished normally.
        case finished

        /// The publisher stopped publishing due to the indicated error.
        case failure(Failure)
    }
}

extension Subscribers.Completion: Equatable where Failure: Equatable {}

extension Subscribers.Completion: Hashable where Failure: Hashable {}

extension Subscribers.Completion: Sendable where Failure: Sendable {}

extension Subscribers.Completion {
    /// Erases the failure type to `any Error`, keeping the case.
    @inlinable
    internal func eraseError() -> Subscribers.Completion<any Error> {
        switch self {
        case .finished: return .finished
        case .failure(let error): return .failure(error)
        }
    }
}

extension Subscribers.Completion {
    /// Whether this is a failure.
    ///
    /// Where `Failure` is `Never` the answer is known from the type alone. Unspecialised code (a
    /// subscription reached through nested generic types) would otherwise look
    /// `Subscribers.Completion<Failure>` up in the run time's metadata cache to read the case, and
    /// would do it on entry to the function that reads it, whichever way the read goes; so the
    /// read is out of line, in ``completionIsFailure(_:)``.
    @inlinable @inline(__always)
    package var isFailure: Bool {
        Failure.self != Never.self && completionIsFailure(self)
    }
}

/// Whether `completion` is a failure: the out-of-line read of ``Subscribers/Completion/isFailure``.
@inlinable @inline(never)
package func completionIsFailure<Failure: Error>(_ completion: Subscribers.Completion<Failure>) -> Bool {
    if case .failure = completion { return true }
    return false
}

extension Subscribers.Completion {
    /// The keys of Combine's coded form: `success` (a Boolean) and, for a failure, `error`.
    @usableFromInline
    internal enum CodingKeys: String, CodingKey {
        case success
        case error
    }
}

extension Subscribers.Completion: Encodable where Failure: Encodable {
    /// Encodes the completion as Combine does: `{"success": true}` when finished, and
    /// `{"success": false, "error": …}` for a failure.
    /// - Parameter encoder: The encoder to write to.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .finished:
            try container.encode(true, forKey: .success)
        case .failure(let error):
            try container.encode(false, forKey: .success)
            try container.encode(error, forKey: .error)
        }
    }
}

extension Subscribers.Completion: Decodable where Failure: Decodable {
    /// Decodes a completion from Combine's coded form; an `error` next to `"success": true` is
    /// ignored, and a failure without one throws `DecodingError.keyNotFound`.
    /// - Parameter decoder: The decoder to read from.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        if try container.decode(Bool.self, forKey: .success) {
            self = .finished
        } else {
            self = .failure(try container.decode(Failure.self, forKey: .error))
        }
    }
}
