/// A range-replaceable collection of integers that logs every call made on it, for the operators
/// of `Publishers.Sequence` and `Just` that build or read collections the way Combine does.
final class LoggingCollection: RangeReplaceableCollection {
    /// The calls made on this collection, in order (`init` from a sequence is not logged).
    private(set) var calls: [String] = []
    private(set) var storage: [Int]

    init() {
        storage = []
        calls = ["init()"]
    }

    init<S: Sequence>(_ elements: S) where S.Element == Int {
        storage = Array(elements)
    }

    func makeIterator() -> IndexingIterator<[Int]> {
        calls.append("makeIterator")
        return storage.makeIterator()
    }

    var underestimatedCount: Int {
        calls.append("underestimatedCount")
        return storage.underestimatedCount
    }

    var startIndex: Int {
        calls.append("startIndex")
        return storage.startIndex
    }

    var endIndex: Int {
        calls.append("endIndex")
        return storage.endIndex
    }

    var count: Int {
        calls.append("count")
        return storage.count
    }

    subscript(position: Int) -> Int {
        calls.append("subscript(position)")
        return storage[position]
    }

    subscript(bounds: Range<Int>) -> Slice<LoggingCollection> {
        calls.append("subscript(bounds)")
        return Slice(base: self, bounds: bounds)
    }

    func index(after index: Int) -> Int {
        calls.append("index(after:)")
        return storage.index(after: index)
    }

    func formIndex(after index: inout Int) {
        calls.append("formIndex(after:)")
        storage.formIndex(after: &index)
    }

    func distance(from start: Int, to end: Int) -> Int {
        calls.append("distance")
        return storage.distance(from: start, to: end)
    }

    func reserveCapacity(_ capacity: Int) {
        calls.append("reserveCapacity")
        storage.reserveCapacity(capacity)
    }

    func append<S: Sequence>(contentsOf elements: S) where S.Element == Int {
        calls.append("append(contentsOf:)")
        storage.append(contentsOf: elements)
    }

    func replaceSubrange<C: Collection>(_ range: Range<Int>, with elements: C) where C.Element == Int {
        calls.append("replaceSubrange")
        storage.replaceSubrange(range, with: elements)
    }
}
