@testable import TetherCore
import TetherTesting
import XCTest

final class FlattenInnersTests: XCTestCase {
    private let subscriptions = (0..<64).map { _ in RecordingSubscription() }

    /// Which of `subscriptions` this is, or `?`.
    private func name(_ subscription: (any Subscription)?) -> String {
        guard let subscription else { return "-" }
        let index = subscriptions.firstIndex { $0 === subscription as AnyObject }
        return index.map { "s\($0)" } ?? "?"
    }

    /// Where the inners stand: each held index with its subscription and flags, oldest first,
    /// then the count and how many entries (holes included) the arrays keep.
    private func describe(_ inners: FlattenInners) -> String {
        let held = inners.heldIndices.map { index -> String in
            "\(index)\(inners.isUnlimited(index) ? "u" : "")\(inners.isImmediate(index) ? "i" : ""):"
                + name(inners.subscription(index))
        }
        return "[\(held.joined(separator: " "))] count \(inners.count) entries \(inners.entries)"
    }

    func testInnersFinishingInAnyOrderLeaveHolesThatGoWhenNoneIsLeft() {
        var inners = FlattenInners()
        var history = [describe(inners)]
        for index in 0..<4 { inners.add(index) }
        history.append(describe(inners))
        history.append("attach 1: \(inners.attach(subscriptions[1], at: 1, unlimited: false))")
        history.append("attach 1 again: \(inners.attach(subscriptions[2], at: 1, unlimited: true))")
        history.append("attach 3: \(inners.attach(subscriptions[3], at: 3, unlimited: true))")
        history.append(describe(inners))
        inners.remove(2)
        history.append(describe(inners))
        history.append("attach 2: \(inners.attach(subscriptions[2], at: 2, unlimited: false))")
        inners.remove(0)
        history.append(describe(inners))
        history.append("all unlimited: \(inners.markAllUnlimited().map(name))")
        history.append("all unlimited again: \(inners.markAllUnlimited().map(name))")
        history.append("subscriptions: \(inners.subscriptions.map(name))")
        inners.remove(1)
        inners.remove(3)
        inners.remove(3)
        history.append(describe(inners))
        inners.add(7, immediate: true)
        inners.markUnlimited(7)
        inners.markUnlimited(8)
        history.append(describe(inners))
        history.append("holds 7, 8: \(inners.holds(7)), \(inners.holds(8))")
        XCTAssertEqual(
            history,
            [
                "[] count 0 entries 0",
                "[0:- 1:- 2:- 3:-] count 4 entries 4",
                "attach 1: true",
                "attach 1 again: false",
                "attach 3: true",
                "[0:- 1:s1 2:- 3u:s3] count 4 entries 4",
                "[0:- 1:s1 3u:s3] count 3 entries 4",
                "attach 2: false",
                "[1:s1 3u:s3] count 2 entries 4",
                "all unlimited: [\"s1\"]",
                "all unlimited again: []",
                "subscriptions: [\"s1\", \"s3\"]",
                "[] count 0 entries 0",
                "[7ui:-] count 1 entries 1",
                "holds 7, 8: true, false",
            ])
    }

    func testHolesAreCompactedOnceTheyOutnumberTheInnersStillHeldAndAreMoreThanEight() {
        var inners = FlattenInners()
        for index in 0..<40 {
            inners.add(index)
            _ = inners.attach(subscriptions[index], at: index, unlimited: false)
        }
        var history: [String] = []
        // The oldest finish first while the newest keep running, as `flatMap`'s inners do.
        for index in 0..<38 {
            inners.remove(index)
            if inners.entries < 40 - index { history.append("after \(index): \(describe(inners))") }
        }
        XCTAssertEqual(
            history,
            [
                // 21 holes against 19 inners.
                "after 20: [21:s21 22:s22 23:s23 24:s24 25:s25 26:s26 27:s27 28:s28 29:s29 30:s30 31:s31 "
                    + "32:s32 33:s33 34:s34 35:s35 36:s36 37:s37 38:s38 39:s39] count 19 entries 19",
                // 10 holes against 9 inners.
                "after 30: [31:s31 32:s32 33:s33 34:s34 35:s35 36:s36 37:s37 38:s38 39:s39] count 9 entries 9",
            ])
        // Seven holes: no more than eight are kept without a compaction.
        XCTAssertEqual(describe(inners), "[38:s38 39:s39] count 2 entries 9")
    }

    func testLookupsAgreeWithADictionaryThroughRandomAdditionsUpdatesAndRemovals() {
        struct Inner: Equatable {
            var subscription: Int?
            var unlimited = false
        }
        var generator = SeededGenerator(seed: 0x5EED)
        var inners = FlattenInners()
        var model: [Int: Inner] = [:]
        var next = 0
        for _ in 0..<5_000 {
            switch generator.next() % 5 {
            case 0, 1:
                inners.add(next)
                model[next] = Inner()
                next += 1
            case 2:
                guard let index = model.keys.randomElement(using: &generator) else { continue }
                inners.remove(index)
                model[index] = nil
            case 3:
                guard let index = model.keys.randomElement(using: &generator) else { continue }
                let attached = inners.attach(subscriptions[index % 64], at: index, unlimited: false)
                XCTAssertEqual(attached, model[index]?.subscription == nil)
                if attached { model[index]?.subscription = index % 64 }
            default:
                guard let index = model.keys.randomElement(using: &generator) else { continue }
                inners.markUnlimited(index)
                model[index]?.unlimited = true
            }
            XCTAssertEqual(inners.heldIndices, model.keys.sorted())
            XCTAssertEqual(inners.count, model.count)
            XCTAssertLessThanOrEqual(inners.entries, 2 * model.count + 9)
        }
        for index in -1...next {
            let seen =
                inners.holds(index)
                ? Inner(
                    subscription: inners.subscription(index).map { subscription in
                        subscriptions.firstIndex { $0 === subscription as AnyObject }!
                    },
                    unlimited: inners.isUnlimited(index))
                : nil
            XCTAssertEqual(seen, model[index], "index \(index)")
        }
    }
}
