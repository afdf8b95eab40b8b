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
