import Foundation
import Tether
import Testing

/// `Subscribers.Completion` codes as Combine's does: `success`, then `error` for a failure.
@Suite struct CompletionCodingTests {
    typealias Completion = Subscribers.Completion<CodedError>

    struct CodedError: Error, Codable, Equatable {
        var description: String
    }

    @Test func encodesFinishedAsSuccessTrue() throws {
        let encoded = try JSONEncoder().encode(Completion.finished)
        #expect(String(decoding: encoded, as: UTF8.self) == #"{"success":true}"#)
    }

    @Test func encodesAFailureAsSuccessFalseThenTheError() throws {
        let encoder = KeyRecordingEncoder()
        try Completion.failure(CodedError(description: "oops")).encode(to: encoder)
        #expect(encoder.entries == ["success: false", #"error: CodedError(description: "oops")"#])
        let encoded = try JSONEncoder().encode(Completion.failure(CodedError(description: "oops")))
        let decoded = try JSONSerialization.jsonObject(with: encoded) as? NSDictionary
        #expect(decoded == ["success": false, "error": ["description": "oops"]])
    }

    @Test func encodesFinishedWithTheSuccessKeyOnly() throws {
        let encoder = KeyRecordingEncoder()
        try Completion.finished.encode(to: encoder)
        #expect(encoder.entries == ["success: true"])
    }

    @Test func decodesFinishedIgnoringAnError() throws {
        let decoder = JSONDecoder()
        #expect(try decoder.decode(Completion.self, from: Data(#"{"success":true}"#.utf8)) == .finished)
        let withError = Data(#"{"error":{"description":"oops"},"success":true}"#.utf8)
        #expect(try decoder.decode(Completion.self, from: withError) == .finished)
    }

    @Test func decodesAFailure() throws {
        let failure = Data(#"{"error":{"description":"oops"},"success":false}"#.utf8)
        #expect(try JSONDecoder().decode(Completion.self, from: failure) == .failure(CodedError(description: "oops")))
    }

    @Test func aFailureWithoutAnErrorDoesNotDecode() {
        #expect {
            try JSONDecoder().decode(Completion.self, from: Data(#"{"success":false}"#.utf8))
        } throws: { error in
            guard case DecodingError.keyNotFound(let key, _) = error else { return false }
            return key.stringValue == "error"
        }
    }

    @Test func aCompletionWithoutSuccessDoesNotDecode() {
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(Completion.self, from: Data(#"{"error":{"description":"oops"}}"#.utf8))
        }
    }
}

/// An encoder that records, in order, each key its keyed container is given and the value
/// encoded under it (without encoding nested values further).
private final class KeyRecordingEncoder: Encoder {
    var entries: [String] = []
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(Container(encoder: self))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        preconditionFailure("a completion encodes into a keyed container")
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        preconditionFailure("a completion encodes into a keyed container")
    }

    struct Container<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let encoder: KeyRecordingEncoder
        var codingPath: [any CodingKey] { [] }

        mutating func encodeNil(forKey key: Key) {
            encoder.entries.append("\(key.stringValue): nil")
        }

        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) {
            encoder.entries.append("\(key.stringValue): \(value)")
        }

        mutating func nestedContainer<NestedKey: CodingKey>(
            keyedBy keyType: NestedKey.Type, forKey key: Key
        ) -> KeyedEncodingContainer<NestedKey> {
            preconditionFailure("a completion nests no container")
        }

        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            preconditionFailure("a completion nests no container")
        }

        mutating func superEncoder() -> any Encoder {
            preconditionFailure("a completion has no super encoder")
        }

        mutating func superEncoder(forKey key: Key) -> any Encoder {
            preconditionFailure("a completion has no super encoder")
        }
    }
}
