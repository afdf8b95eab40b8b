@testable import TetherCore
import TetherTesting
import XCTest

/// The library's FIFO: order across wrap-around and growth, offsets from the oldest, and the
/// bounded append that drops the oldest.
final class RingBufferTests: TetherTestCase {
    func testElementsComeOutOldestFirstAcrossWrapAroundAndGrowth() {
        var buffer = RingBuffer<Int>()
        for value in 0..<3 { buffer.append(value) }
        XCTAssertEqual(buffer.popFirst(), 0)
        XCTAssertEqual(buffer.popFirst(), 1)
        // The ring has wrapped; growing keeps the order.
        for value in 3..<9 { buffer.append(value) }
        XCTAssertEqual(buffer.elements, [2, 3, 4, 5, 6, 7, 8])
        var popped: [Int] = []
        while let value = buffer.popFirst() { popped.append(value) }
        XCTAssertEqual(popped, [2, 3, 4, 5, 6, 7, 8])
        XCTAssertTrue(buffer.isEmpty)
        XCTAssertNil(buffer.first)
    }

    func testOffsetsCountFromTheOldestAndCanBeWritten() {
        var buffer = RingBuffer<Int>()
        for value in 0..<4 { buffer.append(value) }
        _ = buffer.popFirst()
        buffer.append(4)
        XCTAssertEqual(buffer.count, 4)
        XCTAssertEqual(buffer.first, 1)
        XCTAssertEqual(buffer[0], 1)
        XCTAssertEqual(buffer[3], 4)
        buffer[2] = 30
        XCTAssertEqual(Array(buffer), [1, 2, 30, 4])
        XCTAssertEqual(buffer.firstIndex(of: 30), 2)
    }

    func testABoundedAppendDropsTheOldestWhenFull() {
        var buffer = RingBuffer<Int>()
        for value in 1...5 { buffer.append(value, keepingAtMost: 3) }
        XCTAssertEqual(buffer.elements, [3, 4, 5])
        var none = RingBuffer<Int>()
        none.append(1, keepingAtMost: 0)
        XCTAssertTrue(none.isEmpty)
    }

    func testRemovingAtAnOffsetKeepsTheOrderOfTheRestAcrossWrapAround() {
        var buffer = RingBuffer<Int>()
        for value in 0..<4 { buffer.append(value) }
        _ = buffer.popFirst()
        _ = buffer.popFirst()
        for value in 4..<6 { buffer.append(value) }
        // The ring holds 2, 3 | 4, 5 wrapped round its four slots.
        XCTAssertEqual(buffer.capacity, 4)
        XCTAssertEqual(buffer.remove(at: 1), 3)
        XCTAssertEqual(buffer.elements, [2, 4, 5])
        XCTAssertEqual(buffer.remove(at: 2), 5)
        XCTAssertEqual(buffer.remove(at: 0), 2)
        XCTAssertEqual(buffer.elements, [4])
        buffer.append(6)
        buffer.append(7)
        XCTAssertEqual(buffer.elements, [4, 6, 7])
    }

    func testAnElementLeavesTheRingAsItIsTaken() {
        final class Box {}
        var buffer = RingBuffer<Box>()
        weak var first: Box?
        weak var second: Box?
        do {
            let a = Box(), b = Box()
            first = a
            second = b
            buffer.append(a)
            buffer.append(b)
            buffer.append(Box())
        }
        XCTAssertNotNil(buffer.popFirst())
        XCTAssertNil(first, "popped")
        buffer.remove(at: 0)
        XCTAssertNil(second, "removed")
        XCTAssertEqual(buffer.count, 1)
    }
}
