import TetherCore

/// The subscriber behind ``Publisher/sink(weak:receiveValue:file:line:)`` and
/// `assign(to:on:ownership: .weak)`: a sink that holds its owner weakly and hands it back with
/// each event.
///
/// Once the owner is gone, the next value cancels the subscription instead of being delivered,
/// so an infinite upstream (a subject, a timer) drops the sink at its next event. It requests
/// `.unlimited`, touches its closures only on the publisher's serial path, and releases them
/// on completion.
@usableFromInline
internal final class WeakSink<Owner: AnyObject, Input, Failure: Error>: Subscriber, Cancellable,
    TerminationReporting, CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
{
    @usableFromInline
    internal let status = Locked(UpstreamStatus.awaitingSubscription)

    @usableFromInline
    internal let termination = TerminationSignal()

    /// A constant, so that reading it on every value is not an access the run time checks for
    /// exclusivity.
    @usableFromInline
    internal weak let owner: Owner?

    // Touched only on the publisher's serial signal path.
    @usableFromInline
    @exclusivity(unchecked)
    internal var onValue: ((Owner, Input) -> Void)?

    @usableFromInline
    @exclusivity(unchecked)
    internal var onCompletion: ((Owner, Subscribers.Completion<Failure>) -> Void)?

    /// "Sink", or "Assign" for the weak assignment.
    @usableFromInline
    internal let description: String

    @inlinable
    internal init(
        owner: Owner, description: String,
        receiveCompletion: ((Owner, Subscribers.Completion<Failure>) -> Void)?,
        receiveValue: @escaping (Owner, Input) -> Void
    ) {
        self.owner = owner
        self.description = description
        onValue = receiveValue
        onCompletion = receiveCompletion
        Ledger.enter(self)
    }

    deinit {
        Ledger.leave(self)
    }

    @inlinable
    internal func receive(subscription: any Subscription) {
        let accepted = status.withLock { status in status.attach(subscription) }
        if accepted {
            subscription.request(.unlimited)
        } else {
            subscription.cancel()
        }
    }

    @inlinable
    internal func receive(_ value: Input) -> Subscribers.Demand {
        guard let owner else {
            cancel()
            return .none
        }
        onValue?(owner, value)
        return .none
    }

    @inlinable
    internal func receive(completion: Subscribers.Completion<Failure>) {
        if let owner {
            onCompletion?(owner, completion)
        }
        onValue = nil
        onCompletion = nil
        _ = status.withLock(UpstreamStatus.end)
        termination.fire()
    }

    @inlinable
    internal func cancel() {
        if let subscription = status.withLock(UpstreamStatus.end).takeSubscription() {
            subscription.cancel()
        }
        termination.fire()
    }

    internal func observeTermination(_ handler: @escaping @Sendable () -> Void) -> Bool {
        termination.observe(handler)
    }

    @usableFromInline
    internal var customMirror: Mirror { Mirror(self, children: ["owner": owner as Any]) }

    @usableFromInline
    internal var playgroundDescription: Any { description }
}

extension Publisher {
    /// Attaches a sink that holds `owner` weakly and passes it to the closures.
    ///
    /// The closures get the owner as a strong reference for the length of the call, so they
    /// never need `[weak self]`. Once the owner is gone nothing more is delivered: the next
    /// value cancels the subscription, and a completion is dropped. The sink requests
    /// `.unlimited`; events are delivered on the publisher's thread.
    /// - Parameters:
    ///   - owner: The object to hold weakly, typically `self`.
    ///   - receiveCompletion: The closure to execute on completion, with the owner.
    ///   - receiveValue: The closure to execute on receipt of a value, with the owner.
    ///   - file: The file of the call, recorded in debug builds for leak reports.
    ///   - line: The line of the call, recorded in debug builds for leak reports.
    /// - Returns: A cancellable that ends the subscription when cancelled or deallocated.
    @inlinable
    public func sink<Owner: AnyObject>(
        weak owner: Owner,
        receiveCompletion: @escaping (Owner, Subscribers.Completion<Failure>) -> Void,
        receiveValue: @escaping (Owner, Output) -> Void,
        file: StaticString = #fileID, line: UInt = #line
    ) -> AnyCancellable {
        let sink = WeakSink<Owner, Output, Failure>(
            owner: owner, description: "Sink", receiveCompletion: receiveCompletion, receiveValue: receiveValue)
        #if DEBUG
        Ledger.noteOrigin(sink, publisher: self, file: file, line: line)
        #endif
        subscribe(sink)
        return AnyCancellable(object: sink)
    }
}

extension Publisher where Failure == Never {
    /// Attaches a sink that holds `owner` weakly and passes it to `receiveValue`.
    ///
    /// Once the owner is gone the next value cancels the subscription instead of being
    /// delivered. The sink requests `.unlimited`; values arrive on the publisher's thread.
    /// - Parameters:
    ///   - owner: The object to hold weakly, typically `self`.
    ///   - receiveValue: The closure to execute on receipt of a value, with the owner.
    ///   - file: The file of the call, recorded in debug builds for leak reports.
    ///   - line: The line of the call, recorded in debug builds for leak reports.
    /// - Returns: A cancellable that ends the subscription when cancelled or deallocated.
    @inlinable
    public func sink<Owner: AnyObject>(
        weak owner: Owner,
        receiveValue: @escaping (Owner, Output) -> Void,
        file: StaticString = #fileID, line: UInt = #line
    ) -> AnyCancellable {
        let sink = WeakSink<Owner, Output, Failure>(
            owner: owner, description: "Sink", receiveCompletion: nil, receiveValue: receiveValue)
        #if DEBUG
        Ledger.noteOrigin(sink, publisher: self, file: file, line: line)
        #endif
        subscribe(sink)
        return AnyCancellable(object: sink)
    }

    /// Calls a method of `owner` with each value, holding `owner` weakly, like ReactiveCocoa's
    /// `rac_liftSelector`: `events.sink(weak: self, Screen.validate)`.
    ///
    /// `method` is the unapplied instance method, `(Owner) -> (Output) -> Void`; it is applied
    /// to the owner afresh for each value, so nothing holds the owner between values. Once the
    /// owner is gone the next value cancels the subscription.
    /// - Parameters:
    ///   - owner: The object to hold weakly, typically `self`.
    ///   - method: The method to call, as `Type.method`.
    ///   - file: The file of the call, recorded in debug builds for leak reports.
    ///   - line: The line of the call, recorded in debug builds for leak reports.
    /// - Returns: A cancellable that ends the subscription when cancelled or deallocated.
    @inlinable
    public func sink<Owner: AnyObject>(
        weak owner: Owner,
        _ method: @escaping (Owner) -> (Output) -> Void,
        file: StaticString = #fileID, line: UInt = #line
    ) -> AnyCancellable {
        sink(weak: owner, receiveValue: { owner, value in method(owner)(value) }, file: file, line: line)
    }
}
