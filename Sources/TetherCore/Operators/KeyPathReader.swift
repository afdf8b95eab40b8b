/// Reads the value a key path names from each root: straight from the value's offset in the root
/// where the key path has one, through the key path otherwise. What the key-path `map`s read each
/// value with.
///
/// Applying a key path (`root[keyPath: keyPath]`) walks its components through the run time, and
/// in Swift 6.3.1 looks a generic type's metadata up on every call: about 400 instructions to
/// read a stored `Double` of a struct, where a load does. `MemoryLayout.offset(of:)` gives an
/// offset only for storage that reading through the key path is exactly equivalent to reading as
/// the value's type: a stored property of a struct or tuple, or nested ones. It gives none for a
/// class's property, a computed one, an optional chain, or storage in another form than the value
/// (a property declared `weak` or `unowned`), which are applied as key paths. The offset is found
/// once, when a subscription is made.
@usableFromInline
internal struct KeyPathReader<Root, Value> {
    @usableFromInline
    internal let keyPath: KeyPath<Root, Value>

    /// Where the value lies in a root, or -1 when the key path is applied instead.
    @usableFromInline
    internal let offset: Int

    @inlinable
    internal init(_ keyPath: KeyPath<Root, Value>) {
        self.keyPath = keyPath
        offset = MemoryLayout<Root>.offset(of: keyPath) ?? -1
    }

    /// The value `keyPath` names in `root`.
    @inlinable
    internal func read(_ root: Root) -> Value {
        if offset >= 0 {
            return withUnsafeBytes(of: root) { $0.load(fromByteOffset: offset, as: Value.self) }
        }
        return root[keyPath: keyPath]
    }
}
