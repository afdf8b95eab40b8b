@testable import TetherCore
import XCTest

private final class Counter {
    var count = 0
}

/// Which key paths a key-path `map` reads from an offset, and which it applies.
final class KeyPathReaderTests: XCTestCase {
    func testAStoredPropertyOfAStructIsReadFromItsOffset() {
        XCTAssertEqual(KeyPathReader(\KeyPathRow.id).offset, MemoryLayout<KeyPathRow>.offset(of: \KeyPathRow.id))
        XCTAssertEqual(KeyPathReader(\KeyPathRow.title).offset, MemoryLayout<KeyPathRow>.offset(of: \KeyPathRow.title))
        XCTAssertEqual(
            KeyPathReader(\KeyPathRow.detail).offset, MemoryLayout<KeyPathRow>.offset(of: \KeyPathRow.detail))
        XCTAssertEqual(
            KeyPathReader(\KeyPathRow.size.height).offset, MemoryLayout<KeyPathRow>.offset(of: \KeyPathRow.size.height))
        XCTAssertEqual(KeyPathReader(\KeyPathRow.size).offset, MemoryLayout<KeyPathRow>.offset(of: \KeyPathRow.size))
        XCTAssertEqual(KeyPathReader(\(Int, Double).1).offset, MemoryLayout<(Int, Double)>.offset(of: \(Int, Double).1))
        XCTAssertGreaterThan(KeyPathReader(\KeyPathRow.size.height).offset, 0)
        XCTAssertGreaterThan(KeyPathReader(\KeyPathRow.title).offset, 0)
    }

    func testEverythingElseIsReadThroughTheKeyPath() {
        XCTAssertEqual(KeyPathReader(\KeyPathRow.owner).offset, -1, "a weak reference is stored in another form")
        XCTAssertEqual(KeyPathReader(\KeyPathRow.creator).offset, -1, "so is an unowned one")
        XCTAssertEqual(KeyPathReader(\KeyPathRow.area).offset, -1, "a computed property")
        XCTAssertEqual(KeyPathReader(\KeyPathRow.detail?.width).offset, -1, "an optional chain")
        XCTAssertEqual(KeyPathReader(\Counter.count).offset, -1, "a class's property")
    }

    func testBothWaysReadTheValue() {
        let creator = KeyPathOwner(name: "creator")
        let row = KeyPathRow(
            id: 3, size: KeyPathRow.Size(width: 2, height: 5), title: "t", owner: creator, creator: creator,
            detail: KeyPathRow.Size(width: 7, height: 1))
        XCTAssertEqual(KeyPathReader(\KeyPathRow.id).read(row), 3)
        XCTAssertEqual(KeyPathReader(\KeyPathRow.size.height).read(row), 5)
        XCTAssertEqual(KeyPathReader(\KeyPathRow.title).read(row), "t")
        XCTAssertEqual(KeyPathReader(\KeyPathRow.detail).read(row)?.width, 7)
        XCTAssertTrue(KeyPathReader(\KeyPathRow.owner).read(row) === creator)
        XCTAssertTrue(KeyPathReader(\KeyPathRow.creator).read(row) === creator)
        XCTAssertEqual(KeyPathReader(\KeyPathRow.area).read(row), 10)
        XCTAssertEqual(KeyPathReader(\KeyPathRow.detail?.width).read(row), 7)
    }

    func testAStoredObjectReadFromItsOffsetIsRetainedForTheReaderAndLetGoOf() {
        struct Holder {
            var count: Int
            var object: KeyPathOwner
        }
        weak var gone: KeyPathOwner?
        do {
            let holder = Holder(count: 1, object: KeyPathOwner(name: "object"))
            gone = holder.object
            let reader = KeyPathReader(\Holder.object)
            XCTAssertGreaterThanOrEqual(reader.offset, 0)
            var kept: [KeyPathOwner] = []
            for _ in 0..<100 { kept.append(reader.read(holder)) }
            XCTAssertTrue(kept.allSatisfy { $0 === holder.object })
        }
        XCTAssertNil(gone, "every copy the reader made was let go of, and no more")
    }
}
