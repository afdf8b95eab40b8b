import Foundation
import Tether
import Testing

/// Demand arithmetic at its edges: `.unlimited`, `Int.max`, overflow, negative results and
/// negative integer operands, with the results Combine gives.
@Suite struct DemandEdgeTests {
    typealias Demand = Subscribers.Demand

    @Test func addingTwoUnlimitedDemandsStaysUnlimited() {
        #expect(Demand.unlimited + .unlimited == .unlimited)
        #expect(Demand.unlimited + .max(Int.max) == .unlimited)
        #expect(Demand.max(Int.max) + .unlimited == .unlimited)
        #expect(Demand.max(Int.max) + .max(Int.max) == .unlimited)
        #expect(Demand.max(Int.max - 1) + .max(1) == .max(Int.max))
        #expect(Demand.none + .none == .none)
        var demand = Demand.unlimited
        demand += .unlimited
        #expect(demand == .unlimited)
    }

    @Test func addingIntegersSaturatesAtUnlimitedAndClampsAtNone() {
        #expect(Demand.max(Int.max) + 1 == .unlimited)
        #expect(Demand.max(Int.max) + 0 == .max(Int.max))
        #expect(Demand.max(1) + Int.max == .unlimited)
        #expect(Demand.unlimited + Int.min == .unlimited)
        #expect(Demand.unlimited + Int.max == .unlimited)
        #expect(Demand.max(5) + (-5) == .none)
        #expect(Demand.max(5) + (-6) == .none)
        #expect(Demand.max(Int.max) + Int.min == .none)
        #expect(Demand.none + Int.min == .none)
        var demand = Demand.max(Int.max)
        demand += 10
        #expect(demand == .unlimited)
        demand += Int.min
        #expect(demand == .unlimited)
    }

    @Test func subtractingDemandsNeverGoesBelowNone() {
        #expect(Demand.max(Int.max) - .max(Int.max) == .none)
        #expect(Demand.max(Int.max) - .unlimited == .none)
        #expect(Demand.none - .max(1) == .none)
        #expect(Demand.unlimited - .max(Int.max) == .unlimited)
        var demand = Demand.max(4)
        demand -= .unlimited
        #expect(demand == .none)
        demand = .unlimited
        demand -= .unlimited
        #expect(demand == .unlimited)
    }

    @Test func subtractingANegativeIntegerAddsButOverflowGivesNone() {
        #expect(Demand.max(5) - (-3) == .max(8))
        #expect(Demand.max(Int.max - 1) - (-1) == .max(Int.max))
        #expect(Demand.max(Int.max) - (-1) == .none)
        #expect(Demand.none - Int.min == .none)
        #expect(Demand.unlimited - Int.min == .unlimited)
        #expect(Demand.unlimited - Int.max == .unlimited)
        var demand = Demand.max(Int.max)
        demand -= -1
        #expect(demand == .none)
    }

    @Test func subtractingIntegersClampsAtNone() {
        #expect(Demand.max(3) - 3 == .none)
        #expect(Demand.max(3) - 4 == .none)
        #expect(Demand.max(3) - Int.max == .none)
        #expect(Demand.max(Int.max) - Int.max == .none)
        #expect(Demand.max(Int.max) - 1 == .max(Int.max - 1))
    }

    @Test func multiplyingSaturatesAtUnlimited() {
        #expect(Demand.max(Int.max) * 2 == .unlimited)
        #expect(Demand.max(Int.max) * 1 == .max(Int.max))
        #expect(Demand.max(2) * (Int.max / 2 + 1) == .unlimited)
        #expect(Demand.max(7) * 0 == .none)
        #expect(Demand.none * Int.max == .none)
        #expect(Demand.unlimited * Int.max == .unlimited)
        var demand = Demand.max(Int.max)
        demand *= 2
        #expect(demand == .unlimited)
    }

    @Test func comparingWithNegativeIntegers() {
        #expect(Demand.none > -1)
        #expect(Demand.none >= -1)
        #expect(!(Demand.none < -1))
        #expect(!(Demand.none <= -1))
        #expect(!(Demand.none == -1))
        #expect(Demand.none != -1)
        #expect(-1 < Demand.none)
        #expect(-1 <= Demand.none)
        #expect(!(-1 > Demand.none))
        #expect(!(-1 >= Demand.none))
        #expect(Demand.unlimited > Int.min)
        #expect(Int.min < Demand.unlimited)
    }

    @Test func comparingAtIntMax() {
        #expect(Demand.max(Int.max) == Int.max)
        #expect(Int.max == Demand.max(Int.max))
        #expect(Demand.unlimited != Int.max)
        #expect(Demand.unlimited > Int.max)
        #expect(Demand.unlimited >= Int.max)
        #expect(!(Demand.unlimited <= Int.max))
        #expect(Int.max < Demand.unlimited)
        #expect(!(Int.max >= Demand.unlimited))
        #expect(Demand.max(Int.max) < Demand.unlimited)
        #expect(Demand.max(Int.max) <= Int.max)
        #expect(!(Demand.max(Int.max) > Int.max))
    }

    @Test func equalDemandsHashEqually() {
        let sums: Set<Demand> = [.unlimited + .unlimited, .max(Int.max) + 1, .unlimited]
        #expect(sums == [.unlimited])
        #expect(Set([Demand.max(3) - 1, .max(1) + 1, .max(2)]) == [.max(2)])
    }

    @Test func encodesAsTheRawCountUnderAKey() throws {
        struct Keyed: Codable, Equatable { var value: Demand }
        let encoder = JSONEncoder()
        #expect(String(decoding: try encoder.encode(Keyed(value: .max(42))), as: UTF8.self) == #"{"value":42}"#)
        #expect(
            String(decoding: try encoder.encode(Keyed(value: .unlimited)), as: UTF8.self)
                == #"{"value":\#(UInt(Int.max) + 1)}"#)
        let decoder = JSONDecoder()
        #expect(try decoder.decode(Keyed.self, from: Data(#"{"value":42}"#.utf8)) == Keyed(value: .max(42)))
        #expect(
            try decoder.decode(Keyed.self, from: Data(#"{"value":\#(UInt(Int.max) + 1)}"#.utf8))
                == Keyed(value: .unlimited))
        let tooBig = try decoder.decode(Keyed.self, from: Data(#"{"value":\#(UInt(Int.max) + 2)}"#.utf8))
        #expect(tooBig.value.description == "unlimited")
        #expect(throws: DecodingError.self) {
            try decoder.decode(Keyed.self, from: Data(#"{"value":-1}"#.utf8))
        }
    }

    @Test func describesNoneAsMaxZero() {
        #expect(Demand.none.description == "max(0)")
        #expect((Demand.unlimited + .unlimited).description == "unlimited")
        #expect(Demand.max(Int.max).description == "max(\(Int.max))")
    }

    @Test func aNegativeMaximumTraps() async {
        await #expect(processExitsWith: .failure) {
            _ = Subscribers.Demand.max(-1)
        }
    }

    @Test func multiplyingByANegativeIntegerTraps() async {
        await #expect(processExitsWith: .failure) {
            _ = Subscribers.Demand.max(1) * -1
        }
    }
}
