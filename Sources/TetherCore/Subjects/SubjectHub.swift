/// The state every subject shares: its subscriptions, its completion and its upstreams.
///
/// Methods run under the subject's lock and call nothing; what they return is performed after
/// the lock is released.
@usableFromInline
internal struct SubjectHub<Output, Failure: Error> {
    @usableFromInline
    typealias Conduit = SubjectEntry<Output, Failure>

    @usableFromInline var conduits: ContiguousArray<Conduit> = []
    @usableFromInline var completion: Subscribers.Completion<Failure>?
    /// Subscriptions received through `send(subscription:)`.
    @usableFromInline var upstreams: [any Subscription] = []
    /// Set once any subscriber has asked for a value: upstreams are then asked for `.unlimited`.
    @usableFromInline var hasDownstreamDemand = false

    @inlinable
    init() {}

    /// The conduits to offer a value to: none once completed.
    @inlinable
    var receivers: ContiguousArray<Conduit> {
        completion == nil ? conduits : []
    }

    /// Adds a conduit, or returns the completion it must be told of instead.
    @inlinable
    mutating func attach(_ conduit: Conduit) -> Subscribers.Completion<Failure>? {
        if let completion { return completion }
        conduits.append(conduit)
        return nil
    }

    /// Removes a conduit, returning it so that it is released outside the lock.
    @inlinable
    mutating func detach(_ conduit: AnyObject) -> Conduit? {
        // A plain loop: this runs unspecialised (from `cancel()` through `any Subscription`),
        // where `firstIndex(where:)` would box its closure.
        var index = conduits.startIndex
        while index < conduits.endIndex {
            if conduits[index].conduit === conduit { return conduits.remove(at: index) }
            index += 1
        }
        return nil
    }

    /// Records the completion; returns the conduits to finish and the upstreams to let go.
    @inlinable
    mutating func complete(
        _ completion: Subscribers.Completion<Failure>
    ) -> (ContiguousArray<Conduit>, [any Subscription])? {
        guard self.completion == nil else { return nil }
        self.completion = completion
        defer {
            conduits = []
            upstreams = []
        }
        return (conduits, upstreams)
    }

    /// Keeps an upstream subscription; `true` when it must be asked for `.unlimited` now.
    @inlinable
    mutating func receive(upstream: any Subscription) -> Bool {
        upstreams.append(upstream)
        return hasDownstreamDemand
    }

    /// Records the first downstream demand; returns the upstreams to ask for `.unlimited`.
    @inlinable
    mutating func acknowledgeDownstreamDemand() -> [any Subscription] {
        guard !hasDownstreamDemand else { return [] }
        hasDownstreamDemand = true
        return upstreams
    }
}
