import Synchronization

/// The subject behind a `@Published` property once its `$` publisher has been asked for.
///
/// It owns the property's value from then on, so that values assigned through
/// ``Publisher/assign(to:)`` and values set on the property are one and the same. A new value
/// goes out in `willSet` order, as in Combine: first the owner's `objectWillChange`, then the
/// property's subscribers, and only then is it stored, so both see the old value when they
/// read the property. A subscriber that attaches while a value is going out (from inside
/// another subscriber, say) starts from that value, not the old one, as in Combine: the property
/// and a new subscription each have their own current value. When sends overlap (from several
/// threads, or from inside a subscriber), the value sent last is the one that stays.
///
/// Upstream subscriptions from ``Publisher/assign(to:)`` are asked for `.unlimited` at once and
/// live as long as the subject: it cancels them when it is deallocated with the property.
@usableFromInline
internal final class PublishedSubject<Value>: SpecializedSubjectParent, ConduitAttaching, @unchecked Sendable {
    @usableFromInline internal typealias Output = Value
    @usableFromInline internal typealias Failure = Never

    /// `detach`, specialised (see ``SubjectParentSignal``).
    @usableFromInline
    internal let control: (AnyObject, SubjectParentSignal) -> Void

    /// The owner's `objectWillChange`, once known: its address, retained, stored (releasing) once
    /// under the lock and released by `deinit`, so that a send finds it with one load (acquiring)
    /// instead of taking the lock; `0` while unknown. Declared before the generic fields, so that
    /// its offset does not depend on `Value`: Swift 6.3.1 laid out a `Mutex` beside a generic value
    /// differently in specialised and unspecialised code (`Core/Locked.swift`).
    @usableFromInline
    internal let changePublisher = Atomic<UInt>(0)

    /// Guards the variables below. They are kept outside the lock, as ``PassthroughSubject``'s
    /// hub is: `deinit` and the conduits' calls run unspecialised, and a lock or a struct around
    /// generic state costs them run-time type lookups (a property's subject is made and let go
    /// with every object that has the property).
    @usableFromInline
    internal let lock = Locked(())

    /// Conduits and upstreams; `hasDownstreamDemand` starts `true` because a published property
    /// takes every upstream value whether or not anyone is subscribed.
    @usableFromInline @exclusivity(unchecked)
    internal var hub = SubjectHub<Value, Never>()

    /// The value ``value`` reads: the property's value, stored once a send's subscribers have it.
    @usableFromInline @exclusivity(unchecked)
    internal var current: Value

    /// The value a subscriber attaching now starts from: the one the last send began with,
    /// already while that send is going out.
    @usableFromInline @exclusivity(unchecked)
    internal var latest: Value

    /// The last send that began, and the last send whose value was stored.
    @usableFromInline @exclusivity(unchecked)
    internal var issued: UInt64 = 0
    @usableFromInline @exclusivity(unchecked)
    internal var stored: UInt64 = 0

    /// Where to look for `changePublisher` while it is unknown; only kept when
    /// `mayHaveChangePublisher` and the publisher was not known yet when the subject was made (a
    /// weak reference gives its object a side table, an allocation).
    @usableFromInline @exclusivity(unchecked)
    internal weak var owner: AnyObject?

    /// The owner's identity, to drop its `objectWillChange` entry when both are gone; only kept
    /// when `mayHaveChangePublisher`, since no other owner has an entry.
    @usableFromInline
    internal let ownerID: ObjectIdentifier?

    /// Whether a send can have an `objectWillChange` to tell: one was given, or the owner is an
    /// ``ObservableObject``, whose publisher may be made later. Any other owner never has one, so
    /// a send does not look for it (a lock and a weak load per send).
    @usableFromInline
    internal let mayHaveChangePublisher: Bool

    @inlinable
    internal init<Owner: AnyObject>(_ value: Value, owner: Owner?, changePublisher: ObservableObjectPublisher?) {
        control = PublishedSubject.parentEntry
        current = value
        latest = value
        hub.hasDownstreamDemand = true
        // Generic in the owner's type, so that where it is known to be an `ObservableObject`
        // (specialised in the owner's class) the answer is settled at compile time rather than by
        // a conformance lookup each time a property makes its subject.
        mayHaveChangePublisher = changePublisher != nil || owner is any ObservableObject
        ownerID = mayHaveChangePublisher ? owner.map(ObjectIdentifier.init) : nil
        guard mayHaveChangePublisher else { return }
        // Looked up now if the owner's `objectWillChange` has been made (a view that watches the
        // object usually asks for it first): then the subject keeps no weak reference to the owner
        // and its first send does not look.
        if let known = changePublisher ?? owner.flatMap({ ObservableObjectRegistry.existingPublisher(for: $0) }) {
            keep(known)
        } else {
            self.owner = owner
        }
    }

    deinit {
        if let known = knownChangePublisher {
            known.release()
        }
        // Read without the lock: nothing else reaches a subject being deinitialised (its
        // subscriptions hold it), see Docs/SubscriptionKernel.md.
        for upstream in hub.upstreams {
            upstream.cancel()
        }
        if let ownerID {
            ObservableObjectRegistry.forgetIfDead(ownerID)
        }
    }

    /// The value the property holds now.
    @inlinable
    internal var value: Value {
        lock.withLock { _ in current }
    }

    /// Attaches `subscriber`; it receives the current value on its first demand, then every
    /// new value (the latest one when it had no demand for the ones in between).
    @inlinable
    internal func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Value, S.Failure == Never {
        attachKeeping(subscriber)
    }

    /// Attaches `subscriber` as given (see ``ConduitAttaching``).
    @inlinable
    package func attach<S: Subscriber>(_ subscriber: S) where S.Input == Value, S.Failure == Never {
        let conduit = lock.withLock { _ -> SubjectSubscription<S> in
            let conduit = SubjectSubscription(
                kind: .publishedSubject, downstream: subscriber, parent: self, latest: latest)
            _ = hub.attach(SubjectEntry(conduit))
            return conduit
        }
        conduit.start(subscriber)
    }

    /// Attaches a sink made by `sink` (see ``SubjectSink``) and delivers the current value to it
    /// first.
    @inlinable
    internal func attachSink(_ sink: SubjectSink<Value, Never>) {
        sink.attach {
            lock.withLock { _ in
                _ = hub.attach(sink.entry)
                return (latest, nil)
            }
        }
    }

    /// Publishes `input` in `willSet` order, then stores it as the property's value (a subscriber
    /// attaching meanwhile starts from it at once).
    @inlinable
    internal func send(_ input: Value) {
        resolveChangePublisher()?._withUnsafeGuaranteedRef { $0.send() }
        // The values a send replaces are handed out of the lock to be released there: releasing
        // one may run a `deinit`, which must not run under the lock.
        let (receivers, ticket, superseded) = lock.withLock {
            _ -> (SubjectReceivers<Value, Never>, UInt64, Value) in
            issued += 1
            defer { latest = input }
            return (hub.receivers, issued, latest)
        }
        _ = superseded
        receivers.offer(input)
        let replaced = lock.withLock { _ -> Value? in
            guard ticket > stored else { return nil }
            stored = ticket
            defer { current = input }
            return current
        }
        _ = replaced
    }

    /// The owner's `objectWillChange`, looked up until it is first found and kept after.
    ///
    /// Unretained: ``changePublisher`` is written once and released only by `deinit`, so the
    /// subject's own retain keeps the publisher alive while the subject is, and a send does not
    /// retain it. That retain was not a cheap one: a publisher whose subscriptions hold it weakly
    /// has a side table, and every retain and release of it takes the run time's slow path.
    @inlinable
    internal func resolveChangePublisher() -> Unmanaged<ObservableObjectPublisher>? {
        guard mayHaveChangePublisher else { return nil }
        if let known = knownChangePublisher { return known }
        guard let owner = lock.withLock({ _ in self.owner }),
            let found = ObservableObjectRegistry.existingPublisher(for: owner)
        else {
            return nil
        }
        // Another send may have found it first: the same publisher, which the field keeps.
        return lock.withLock { _ in knownChangePublisher ?? keep(found) }
    }

    /// ``changePublisher``, once stored.
    @inlinable
    internal var knownChangePublisher: Unmanaged<ObservableObjectPublisher>? {
        UnsafeRawPointer(bitPattern: changePublisher.load(ordering: .acquiring)).map(Unmanaged.fromOpaque)
    }

    /// Stores `publisher` in ``changePublisher``, retained; once, from `init` or under the lock.
    @inlinable @discardableResult
    internal func keep(_ publisher: ObservableObjectPublisher) -> Unmanaged<ObservableObjectPublisher> {
        let kept = Unmanaged.passRetained(publisher)
        changePublisher.store(UInt(bitPattern: kept.toOpaque()), ordering: .releasing)
        return kept
    }

    /// Keeps `subscription` for the subject's lifetime and asks it for everything.
    @inlinable
    internal func send(subscription: any Subscription) {
        if lock.withLock({ _ in hub.receive(upstream: subscription) }) {
            subscription.request(.unlimited)
        }
    }

    /// Lets go of an upstream subscription that has finished.
    @inlinable
    internal func forget(upstream id: CombineIdentifier) {
        let removed = lock.withLock { _ -> (any Subscription)? in
            guard let index = hub.upstreams.firstIndex(where: { $0.combineIdentifier == id }) else {
                return nil
            }
            return hub.upstreams.remove(at: index)
        }
        _ = removed
    }

    @usableFromInline
    internal func detach(_ conduit: AnyObject) {
        control(self, .detach(conduit))
    }

    /// Nothing to do: upstreams are asked for everything as they arrive.
    @usableFromInline
    internal func acknowledgeDownstreamDemand() {}

    @inlinable
    package func detachNow(_ conduit: AnyObject) {
        let removed = lock.withLock { _ in hub.detach(conduit) }
        _ = removed
    }

    @inlinable
    package func acknowledgeDownstreamDemandNow() {}
}

/// The subscriber behind ``Publisher/assign(to:)``: it feeds a published property's subject.
///
/// It holds the subject weakly, so the upstream never keeps the property (or its owner)
/// alive; the subject holds the upstream subscription, so the subscription lives exactly as
/// long as the property. An upstream that finishes is forgotten by the subject.
///
/// `@unchecked Sendable`: the subject is a weak reference written only by `init` (weak loads are
/// thread-safe), and the upstream's identifier lives under its lock.
@usableFromInline
internal final class PublishedSubscriber<Value>: Subscriber, CustomStringConvertible,
    CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
{
    @usableFromInline typealias Input = Value
    @usableFromInline typealias Failure = Never

    /// A constant (weak loads are thread-safe), so that reading it is not an access the run time
    /// checks for exclusivity on every value.
    @usableFromInline
    internal weak let subject: PublishedSubject<Value>?

    /// The identifier of the upstream subscription, once received.
    @usableFromInline
    internal let upstream = Locked<CombineIdentifier?>(nil)

    @inlinable
    internal init(_ subject: PublishedSubject<Value>) {
        self.subject = subject
        Ledger.enter(self)
    }

    deinit {
        Ledger.leave(self)
    }

    @inlinable
    internal func receive(subscription: any Subscription) {
        let accepted = upstream.withLock { id -> Bool in
            guard id == nil else { return false }
            id = subscription.combineIdentifier
            return true
        }
        guard accepted, let subject else {
            subscription.cancel()
            return
        }
        subject.send(subscription: subscription)
    }

    @inlinable
    internal func receive(_ input: Value) -> Subscribers.Demand {
        subject?.send(input)
        return .none
    }

    @inlinable
    internal func receive(completion: Subscribers.Completion<Never>) {
        guard let id = upstream.withLock({ $0 }) else { return }
        subject?.forget(upstream: id)
    }

    @usableFromInline
    internal var description: String { "PublishedSubscriber" }

    @usableFromInline
    internal var customMirror: Mirror {
        Mirror(self, children: ["subject": subject as Any])
    }

    @usableFromInline
    internal var playgroundDescription: Any { description }
}
