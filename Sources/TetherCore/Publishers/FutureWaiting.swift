/// The subscriptions waiting for a ``Future``'s outcome, in the order they subscribed.
///
/// The first is held inline, so that a future with one subscriber waiting (a callback wrapped in
/// a `Future`, subscribed before the callback comes) keeps nothing on the heap for it: an array
/// of one allocated its storage, about 450 instructions a subscription with its release. From the
/// second on, they go to ``rest``; the first, when still there, is always older than all of
/// them, so the order holds whichever of them cancels.
@usableFromInline
internal struct FutureWaiting<Output, Failure: Error> {
    @usableFromInline typealias Conduit = any FutureConduit<Output, Failure>

    @usableFromInline var first: Conduit?
    /// `nil` until a second subscription waits alongside the first.
    @usableFromInline var rest: [Conduit]?

    @inlinable
    init() {}

    @inlinable
    mutating func append(_ conduit: Conduit) {
        if rest != nil {
            rest!.append(conduit)
        } else if first == nil {
            first = conduit
        } else {
            rest = [conduit]
        }
    }

    /// Removes `conduit`, if it waits, and returns it so that it is released outside the lock.
    @inlinable
    mutating func remove(_ conduit: AnyObject) -> Conduit? {
        if let waiting = first, waiting === conduit {
            first = nil
            return waiting
        }
        guard var list = rest.take() else { return nil }
        defer { rest = list }
        guard let index = list.firstIndex(where: { $0 === conduit }) else { return nil }
        return list.remove(at: index)
    }

    /// Hands every waiting subscription the outcome, oldest first.
    @inlinable
    func settle(_ outcome: Result<Output, Failure>) {
        first?.settle(outcome)
        guard let rest else { return }
        for conduit in rest {
            conduit.settle(outcome)
        }
    }
}
