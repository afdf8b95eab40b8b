import TetherCore

/// An object whose work runs in a `Task` it starts itself.
///
/// Starting the task through this non-generic protocol keeps the task's closure from capturing
/// the metatypes of the object's generic parameters (a subscriber's type need not be
/// `Sendable`), while the object itself vouches for its thread safety.
@usableFromInline
internal protocol TaskDriven: AnyObject, Sendable {
    /// The task's body.
    func drive() async
}

extension TaskDriven {
    /// Starts ``drive()`` in a new unstructured task on the global concurrent executor.
    @usableFromInline
    internal func startTask() -> Task<Void, Never> {
        let driven: any TaskDriven = self
        return Task { await driven.drive() }
    }
}
