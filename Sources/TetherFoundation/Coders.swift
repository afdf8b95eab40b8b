import Foundation
import TetherCore

extension JSONDecoder: TopLevelDecoder {
    /// `JSONDecoder` decodes from `Data`.
    public typealias Input = Data
}

extension JSONEncoder: TopLevelEncoder {
    /// `JSONEncoder` encodes to `Data`.
    public typealias Output = Data
}

#if !os(WASI)
extension PropertyListDecoder: TopLevelDecoder {
    /// `PropertyListDecoder` decodes from `Data`.
    public typealias Input = Data
}

extension PropertyListEncoder: TopLevelEncoder {
    /// `PropertyListEncoder` encodes to `Data`.
    public typealias Output = Data
}
#endif
