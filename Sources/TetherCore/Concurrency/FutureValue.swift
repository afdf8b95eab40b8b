extension Future where Failure == Never {
    /// The published value of the future, delivered asynchronously.
    ///
    /// Subscribes to the future and returns its value once the promise is fulfilled. A future
    /// that never fails always delivers a value, so this waits for it even if the awaiting task
    /// is cancelled.
    public var value: Output {
        get async {
            let outcome = await ValueAwaiter<Output, Never>.outcome(of: self, firstOnly: true, cancellable: false)
            guard case .success(let values) = outcome, let value = values.first else {
                preconditionFailure("A Future that never fails finished without a value")
            }
            return value
        }
    }
}

extension Future {
    /// The published value of the future or an error, delivered asynchronously.
    ///
    /// Subscribes to the future and returns its value once the promise is fulfilled. If the
    /// future fails, the awaiting caller receives the error instead; if the awaiting task is
    /// cancelled, the subscription is cancelled and `CancellationError` is thrown.
    public var value: Output {
        get async throws {
            let values = try await ValueAwaiter<Output, Failure>.outcome(
                of: self, firstOnly: true, cancellable: true
            ).get()
            guard let value = values.first else {
                preconditionFailure("A Future finished without a value")
            }
            return value
        }
    }
}
