/// A variable that a relay's step closure keeps, read and written only on the relay's serial path
/// (Combine's rule: the upstream's signals arrive one at a time): `removeDuplicates`' last element,
/// `drop(while:)`'s flag, `tryScan`'s running result.
///
/// A `var` captured by an escaping closure is checked for exclusive access at run time on every
/// access (`swift_beginAccess`): `@inlinable` code is compiled in the user's module, with the checks
/// on. Kept here, behind `@exclusivity(unchecked)`, it is not (Docs/FastWithoutTheSpecialiser.md,
/// "No run-time exclusivity checks on a per-value path").
@usableFromInline
internal final class SerialVariable<Value> {
    /// The value; the serial path's alone.
    @usableFromInline @exclusivity(unchecked)
    internal var value: Value

    /// A variable holding `value`.
    @inlinable
    internal init(_ value: Value) {
        self.value = value
    }
}
