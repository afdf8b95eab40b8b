import TetherCore

extension Publisher {
    /// The first value the publisher produces, awaited; `nil` if it finishes without one.
    ///
    /// Subscribes, requests `.max(1)`, and cancels the subscription as soon as the value
    /// arrives. Cancelling the awaiting task cancels the subscription and throws
    /// `CancellationError`. The value is returned on the caller's executor.
    ///
    /// ```swift
    /// let page = try await loader.pages.firstValue
    /// ```
    /// - Throws: The publisher's failure, or `CancellationError`.
    public var firstValue: Output? {
        get async throws {
            try await ValueAwaiter<Output, Failure>.outcome(of: self, firstOnly: true, cancellable: true).get().first
        }
    }

    /// Every value the publisher produces until it finishes, awaited.
    ///
    /// Subscribes with `.unlimited` demand and returns when the publisher finishes, so it must
    /// not be used on a publisher that never does. Cancelling the awaiting task cancels the
    /// subscription and throws `CancellationError`.
    /// - Returns: The values in the order they arrived.
    /// - Throws: The publisher's failure, or `CancellationError`.
    public func collectValues() async throws -> [Output] {
        try await ValueAwaiter<Output, Failure>.outcome(of: self, firstOnly: false, cancellable: true).get()
    }
}

extension Future where Failure == Never {
    /// Creates a future that runs `operation` in a new task, at once, and publishes its result.
    ///
    /// The task is unstructured: it runs on the global concurrent executor (or the actor the
    /// closure is isolated to) and is not cancelled when subscribers cancel, as a future's work
    /// is shared by all of them.
    ///
    /// ```swift
    /// let profile = Future { await api.profile() }
    /// ```
    /// - Parameter operation: The work whose result the future publishes.
    public convenience init(_ operation: @escaping @Sendable () async -> Output) {
        self.init { promise in
            Task { promise(.success(await operation())) }
        }
    }
}

extension Future where Failure == any Error {
    /// Creates a future that runs a throwing `operation` in a new task, at once, and publishes
    /// its result or fails with its error.
    ///
    /// The task is unstructured, runs on the global concurrent executor (or the actor the closure
    /// is isolated to), and is not cancelled when subscribers cancel.
    ///
    /// ```swift
    /// let profile = Future { try await api.profile() }
    /// ```
    /// - Parameter operation: The work whose result the future publishes.
    public convenience init(_ operation: @escaping @Sendable () async throws -> Output) {
        self.init { promise in
            Task {
                do {
                    promise(.success(try await operation()))
                } catch {
                    promise(.failure(error))
                }
            }
        }
    }
}
