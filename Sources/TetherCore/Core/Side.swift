/// A subscription object that subscribes to upstreams of its own through ``Side`` values: the
/// upstreams of a merge or an amb, a flattening's inner publishers, `withLatestFrom`'s other
/// publisher, a catch's replacement.
///
/// A class can conform to `Subscriber` once; the publishers it subscribes to besides its own
/// upstream each get a `Side`, a value that carries the owner and an index and forwards the three
/// signals to the owner's `side…` entries. The index tells the upstreams apart where there are
/// several (an owner with one such upstream ignores it).
///
/// One owner has one kind of side: all its sides receive `SideInput` and `SideFailure`. An owner
/// whose upstreams differ in type (zip and combine-latest) keeps a side type of its own.
@usableFromInline
package protocol SideOwner: AnyObject {
    /// The values the owner's sides receive.
    associatedtype SideInput
    /// The failures the owner's sides receive.
    associatedtype SideFailure: Error

    /// Side `index`'s upstream handed over its subscription.
    func sideReceive(_ index: Int, subscription: any Subscription)

    /// Side `index`'s upstream sent `input`; returns the demand the side adds.
    func sideReceive(_ index: Int, _ input: SideInput) -> Subscribers.Demand

    /// Side `index`'s upstream completed.
    func sideReceive(_ index: Int, completion: Subscribers.Completion<SideFailure>)

    /// What each side describes itself as (the operator's name).
    var sideDescription: String { get }

    /// The children of side `index`'s mirror; none unless the owner says otherwise.
    func sideMirrorChildren(_ index: Int) -> KeyValuePairs<String, Any>
}

extension SideOwner {
    @inlinable
    package func sideMirrorChildren(_ index: Int) -> KeyValuePairs<String, Any> { [:] }
}

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
