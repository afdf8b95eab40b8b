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

    /// The elements, oldest first.
    @inlinable
    package var elements: [Element] {
        (0..<count).map { slots[(head + $0) % slots.count]! }
    }

    @inlinable
    package mutating func append(_ element: Element) {
        if count == slots.count { grow() }
        slots[(head + count) % slots.count] = element
        count += 1
    }

    @inlinable
    package mutating func popFirst() -> Element? {
        guard count > 0 else { return nil }
        let element = slots[head].take()
        head = (head + 1) % slots.count
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
