/// A type that defines methods for decoding, such as `JSONDecoder`.
///
/// The ``Publisher/decode(type:decoder:)`` operator takes any `TopLevelDecoder`; the Foundation
/// integration makes `JSONDecoder` (and `PropertyListDecoder` where Foundation has it) conform.
public protocol TopLevelDecoder<Input> {
    /// The type this decoder accepts.
    associatedtype Input

    /// Decodes an instance of the indicated type.
    /// - Parameters:
    ///   - type: The type of the value to decode.
    ///   - from: The data to decode from.
    /// - Returns: The decoded value.
    func decode<T: Decodable>(_ type: T.Type, from: Input) throws -> T
}

/// A type that defines methods for encoding, such as `JSONEncoder`.
///
/// The ``Publisher/encode(encoder:)`` operator takes any `TopLevelEncoder`; the Foundation
/// integration makes `JSONEncoder` (and `PropertyListEncoder` where Foundation has it) conform.
public protocol TopLevelEncoder<Output> {
    /// The type this encoder produces.
    associatedtype Output

    /// Encodes an instance of the indicated type.
    /// - Parameter value: The instance to encode.
    /// - Returns: The encoded value.
    func encode<T: Encodable>(_ value: T) throws -> Output
}
