import TetherCore

extension Collection where Element: Publisher {
    /// Merges every publisher in the collection into one stream of their values:
    /// ``Publishers/MergeMany`` over the collection.
    ///
    /// See ``Publishers/MergeMany`` for demand, delivery and completion: it finishes once every
    /// publisher has finished (an empty collection finishes at once), and fails with the first
    /// failure, cancelling the others.
    /// - Returns: A publisher of the values of every publisher in the collection.
    @inlinable
    public func merge() -> Publishers.MergeMany<Element> {
        Publishers.MergeMany(self)
    }
}
