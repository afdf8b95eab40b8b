import Foundation
import Tether
import XCTest

final class DemandTests: TetherTestCase {
    typealias Demand = Subscribers.Demand

    func testAdditionSaturatesToUnlimited() {
        XCTAssertEqual(Demand.max(2) + .max(3), .max(5))
        XCTAssertEqual(Demand.max(Int.max) + .max(1), .unlimited)
        XCTAssertEqual(Demand.unlimited + .max(1), .unlimited)
        XCTAssertEqual(Demand.max(1) + .unlimited, .unlimited)
        XCTAssertEqual(Demand.max(2) + 3, .max(5))
        XCTAssertEqual(Demand.max(Int.max) + Int.max, .unlimited)
        XCTAssertEqual(Demand.max(5) + (-2), .max(3))
        var demand = Demand.max(1)
        demand += .max(1)
        demand += 1
        XCTAssertEqual(demand, .max(3))
    }

    func testSubtractionClampsAtNone() {
        XCTAssertEqual(Demand.max(5) - .max(3), .max(2))
        XCTAssertEqual(Demand.max(3) - .max(5), .none)
        XCTAssertEqual(Demand.max(3) - .unlimited, .none)
        XCTAssertEqual(Demand.unlimited - .max(3), .unlimited)
        XCTAssertEqual(Demand.unlimited - .unlimited, .unlimited)
        XCTAssertEqual(Demand.max(3) - 5, .none)
        XCTAssertEqual(Demand.unlimited - 5, .unlimited)
        var demand = Demand.max(2)
        demand -= 1
        demand -= .max(5)
        XCTAssertEqual(demand, .none)
    }

    func testMultiplication() {
        XCTAssertEqual(Demand.max(3) * 4, .max(12))
        XCTAssertEqual(Demand.unlimited * 0, .unlimited)
        XCTAssertEqual(Demand.max(Int.max) * 2, .unlimited)
        var demand = Demand.max(2)
        demand *= 3
        XCTAssertEqual(demand, .max(6))
    }

    func testComparisons() {
        XCTAssertTrue(Demand.max(1) < .unlimited)
        XCTAssertFalse(Demand.unlimited < .unlimited)
        XCTAssertTrue(Demand.unlimited <= .unlimited)
        XCTAssertTrue(Demand.max(2) > .max(1))
        XCTAssertTrue(Demand.unlimited > 1_000_000)
        XCTAssertFalse(Demand.unlimited < 5)
        XCTAssertFalse(Demand.unlimited <= 5)
        XCTAssertTrue(Demand.unlimited >= 5)
        XCTAssertFalse(Demand.unlimited == Int.max)
        XCTAssertTrue(Demand.max(3) == 3)
        XCTAssertTrue(3 == Demand.max(3))
        XCTAssertTrue(Demand.max(3) != 4)
        XCTAssertTrue(Demand.none == 0)
        XCTAssertTrue(2 < Demand.max(3))
        XCTAssertTrue(3 <= Demand.max(3))
        XCTAssertTrue(4 > Demand.max(3))
        XCTAssertTrue(3 >= Demand.max(3))
        XCTAssertTrue(Demand.max(0) > -1)
    }

    func testMaxAndDescription() {
        XCTAssertEqual(Demand.max(7).max, 7)
        XCTAssertNil(Demand.unlimited.max)
        XCTAssertEqual(Demand.none, .max(0))
        XCTAssertEqual(Demand.max(7).description, "max(7)")
        XCTAssertEqual(Demand.unlimited.description, "unlimited")
    }

    func testCodableRoundTrip() throws {
        struct Holder: Codable, Equatable { var a: Demand; var b: Demand }
        let holder = Holder(a: .max(3), b: .unlimited)
        let data = try JSONEncoder().encode(holder)
        XCTAssertEqual(try JSONDecoder().decode(Holder.self, from: data), holder)
    }
}
