import TetherCore

/// How `assign(to:on:ownership:)` holds the object it assigns to.
public enum AssignOwnership: Sendable, Hashable {
    /// Holds the object strongly until the stream completes or is cancelled, as Combine's
    /// `assign(to:on:)` does: storing the cancellable on the object forms a cycle.
    case strong

    /// Holds the object weakly: once it is gone, the next value cancels the subscription.
    case weak

    /// Holds the object without retaining it and without checking: assigning after the object
    /// is gone traps. For objects that certainly outlive the subscription (they own its
    /// cancellable).
    case unowned
}

extension Publisher where Failure == Never {
    /// Assigns each element to a property of `object`, holding it as `ownership` says.
    ///
    /// `.strong` is Combine's `assign(to:on:)`. `.weak` is the usual answer to the cycle that an
    /// object assigning to itself forms (`assign(to: \.state, on: self, ownership: .weak)`), and
    /// `.unowned` skips even the weak reference. The subscriber requests `.unlimited` and
    /// assigns on the thread that delivers each value.
    /// - Parameters:
    ///   - keyPath: A key path that indicates the property to assign.
    ///   - object: The object that contains the property.
    ///   - ownership: How the subscriber holds `object`.
    ///   - file: The file of the call, recorded in debug builds for leak reports.
    ///   - line: The line of the call, recorded in debug builds for leak reports.
    /// - Returns: A cancellable that ends the assignment when cancelled or deallocated.
    @inlinable
    public func assign<Root: AnyObject>(
        to keyPath: ReferenceWritableKeyPath<Root, Output>, on object: Root, ownership: AssignOwnership,
        file: StaticString = #fileID, line: UInt = #line
    ) -> AnyCancellable {
        switch ownership {
        case .strong:
            // Combine's `assign(to:on:)` takes no call site, so the subscriber is attached here,
            // where the ledger can record this call's.
            let subscriber = Subscribers.Assign(object: object, keyPath: keyPath)
            #if DEBUG
            Ledger.noteOrigin(subscriber, publisher: self, file: file, line: line)
            #endif
            subscribe(subscriber)
            return AnyCancellable(object: subscriber)
        case .weak:
            let sink = WeakSink<Root, Output, Never>(
                owner: object, description: "Assign", receiveCompletion: nil,
                receiveValue: { object, value in object[keyPath: keyPath] = value })
            #if DEBUG
            Ledger.noteOrigin(sink, publisher: self, file: file, line: line)
            #endif
            subscribe(sink)
            return AnyCancellable(object: sink)
        case .unowned:
            let sink = Subscribers.Sink<Output, Never>(
                receiveCompletion: { _ in },
                receiveValue: { [unowned object] value in object[keyPath: keyPath] = value })
            #if DEBUG
            Ledger.noteOrigin(sink, publisher: self, file: file, line: line)
            #endif
            subscribe(sink)
            return AnyCancellable(object: sink)
        }
    }
}
