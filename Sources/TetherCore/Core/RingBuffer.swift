/// A first-in, first-out queue on a ring of slots, growing by doubling: appending and removing
/// at either end cost O(1), so `dropOldest` on a full buffer stays cheap.
@usableFromInline
package struct RingBuffer<Element> {
    @usableFromInline package var slots: ContiguousArray<Element?> = []
    /// Index of the oldest element.
    @usableFromInline package var head = 0
    @usableFromInline package var count = 0

    @inlinable
    package init() {}

    @inlinable
    package var isEmpty: Bool { count == 0 }

    /// How many elements fit before the ring grows.
    @inlinable
    package var capacity: Int { slots.count }

    /// The slot `offset` places after the oldest element, for an offset up to ``count``: the
    /// index wrapped by one subtraction, since `head + offset` is less than twice the capacity.
    /// (`%` by a capacity known only at run time is an integer division on every value queued
    /// and taken.)
    @inlinable
    package func slot(_ offset: Int) -> Int {
        let index = head &+ offset
        return index >= slots.count ? index &- slots.count : index
    }

    /// The elements, oldest first.
    @inlinable
    package var elements: [Element] {
        (0..<count).map { slots[slot($0)]! }
    }

    @inlinable
    package mutating func append(_ element: Element) {
        if count == slots.count { grow() }
        slots[slot(count)] = element
        count += 1
    }

    /// Appends `element`, keeping at most `limit` elements: when full, the oldest gives way;
    /// with a limit of zero nothing is kept.
    @inlinable
    package mutating func append(_ element: Element, keepingAtMost limit: Int) {
        guard limit > 0 else { return }
        while count >= limit { _ = popFirst() }
        append(element)
    }

    @inlinable
    package mutating func popFirst() -> Element? {
        guard count > 0 else { return nil }
        return removeFirst()
    }

    /// Removes and returns the oldest element; the buffer must not be empty. Always inlined: it
    /// is on the path of every value a queue hands out, where the optimiser had left it a call of
    /// its own.
    @inlinable @inline(__always)
    package mutating func removeFirst() -> Element {
        precondition(count > 0, "RingBuffer is empty: nothing to remove")
        let element = slots[head].take()!
        head = slot(1)
        count -= 1
        return element
    }

    /// Removes and returns the element `offset` places from the oldest; the younger ones move up
    /// one place, so the order of the rest is kept.
    @inlinable
    @discardableResult
    package mutating func remove(at offset: Int) -> Element {
        precondition(offset >= 0 && offset < count, "RingBuffer offset \(offset) out of 0..<\(count)")
        let element = slots[slot(offset)].take()!
        for position in offset..<(count - 1) {
            slots[slot(position)] = slots[slot(position + 1)].take()
        }
        count -= 1
        return element
    }

    @inlinable
    package mutating func removeAll() {
        self = RingBuffer()
    }

    @inlinable
    package mutating func grow() {
        let old = elements
        let capacity = Swift.max(4, slots.count * 2)
        slots = ContiguousArray(repeating: nil, count: capacity)
        for (index, element) in old.enumerated() {
            slots[index] = element
        }
        head = 0
    }
}

/// The elements by offset from the oldest, `0..<count`.
extension RingBuffer: RandomAccessCollection, MutableCollection {
    @inlinable
    package var startIndex: Int { 0 }

    @inlinable
    package var endIndex: Int { count }

    @inlinable
    package subscript(position: Int) -> Element {
        get {
            precondition(position >= 0 && position < count, "RingBuffer offset \(position) out of 0..<\(count)")
            return slots[slot(position)]!
        }
        set {
            precondition(position >= 0 && position < count, "RingBuffer offset \(position) out of 0..<\(count)")
            slots[slot(position)] = newValue
        }
    }
}
