// Helpers for the async/await article's samples: reading the article's print log from a synchronous test.
import Foundation
import Tether
import TetherExtras
import XCTest

extension XCTestCase {
    /// The article's print log as it stands now: the lines, and the most calls that ran at once.
    func read(_ log: PrintLog) -> ([String], Int) {
        let read = expectation(description: "log read")
        nonisolated(unsafe) var result: ([String], Int) = ([], 0)
        Task {
            result = (await log.lines, await log.mostAtOnce)
            read.fulfill()
        }
        wait(for: [read], timeout: 5)
        return result
    }

    /// Waits until the log holds `count` lines, or `timeout` seconds pass.
    func waitForLines(_ log: PrintLog, count: Int, timeout: Double = 10) -> ([String], Int) {
        let deadline = Date().addingTimeInterval(timeout)
        var current = read(log)
        while current.0.count < count && Date() < deadline {
            usleep(2_000)
            current = read(log)
        }
        return current
    }

    /// Waits until a subject has a subscriber that has asked for values: the article's loops
    /// subscribe from a `Task`, and a subject drops what it is sent before the subscriber's first
    /// request, as Combine's does, even while the subscriber is being handed its subscription.
    /// The ledger lists the subject's subscription as soon as it is made, a few calls before the
    /// subscriber asks, so the wait ends a moment after it appears.
    func waitForSubjectSubscriber(timeout: Double = 10) {
        guard SubscriptionLedger.isEnabled else {
            usleep(200_000)  // optimised builds have no ledger to watch: give the task time instead
            return
        }
        let deadline = Date().addingTimeInterval(timeout)
        while !SubscriptionLedger.snapshot().contains(where: { $0.type.hasPrefix("SubjectSubscription") })
            && Date() < deadline
        {
            usleep(1_000)
        }
        usleep(50_000)
    }
}
