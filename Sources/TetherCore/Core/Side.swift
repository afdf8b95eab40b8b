/// The subscriber a ``SideOwner`` hands one of its upstreams: the owner and the upstream's index,
/// forwarding each signal to the owner.
///
/// Its layout does not depend on the owner's type (a reference, an `Int`, an identifier), so code
/// that runs it unspecialised reads its fields without looking up generic metadata.
@usableFromInline
package struct Side<Owner: SideOwner>: Subscriber, CustomStringConvertible, CustomReflectable,
    CustomPlaygroundDisplayConvertible
{
    @usableFromInline package typealias Input = Owner.SideInput
    @usableFromInline package typealias Failure = Owner.SideFailure

    @usableFromInline package let owner: Owner
    @usableFromInline package let index: Int
    @usableFromInline package let combineIdentifier = CombineIdentifier()

    /// Makes side `index` of `owner` (`0` for an owner with one side).
    @inlinable
    package init(_ owner: Owner, index: Int = 0) {
        self.owner = owner
        self.index = index
    }

    @inlinable
    package func receive(subscription: any Subscription) {
        owner.sideReceive(index, subscription: subscription)
    }

    @inlinable
    package func receive(_ input: Owner.SideInput) -> Subscribers.Demand {
        owner.sideReceive(index, input)
    }

    @inlinable
    package func receive(completion: Subscribers.Completion<Owner.SideFailure>) {
        owner.sideReceive(index, completion: completion)
    }

    @usableFromInline package var description: String { owner.sideDescription }
    @usableFromInline package var customMirror: Mirror {
        Mirror(self, children: owner.sideMirrorChildren(index))
    }
    @usableFromInline package var playgroundDescription: Any { description }
}
