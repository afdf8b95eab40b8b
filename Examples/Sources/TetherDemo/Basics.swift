import Tether
import TetherExtras

/// The first demonstration's checks, kept: a pipeline, demand, and the lifetimes of
/// subscriptions, with the ledger naming a leak. Everything it makes is gone when it returns.
struct Basics {
    let report: Report

    func run() {
        pipeline()
        demand()
        lifetimes()
        leakReport()
    }

    private func pipeline() {
        report.section("Basics: a subject feeding a pipeline")
        let temperatures = PassthroughSubject<Double, Never>()
        var alerts: [String] = []
        let alerting =
            temperatures
            .map { celsius in celsius * 9 / 5 + 32 }
            .filter { $0 > 100 }
            .map { "hot: \($0)°F" }
            .sink { alerts.append($0) }
        for reading in [20.0, 38.5, 41.0, 12.0] {
            temperatures.send(reading)
        }
        say("  alerts: \(alerts)")
        report.check(alerts == ["hot: 101.3°F", "hot: 105.8°F"], "only readings above 100°F come through")
        alerting.cancel()
    }

    private func demand() {
        report.section("Basics: a subscriber that asks for two values at a time")
        let paced = Paced()
        (1...6).publisher.subscribe(paced)
        report.check(paced.received == [1, 2], "the publisher stops at the demand: \(paced.received)")
        paced.subscription?.request(.max(2))
        report.check(paced.received == [1, 2, 3, 4], "two more on request: \(paced.received)")
        paced.subscription?.cancel()
        paced.subscription = nil
    }

    private func lifetimes() {
        report.section("Basics: subscriptions let go of their subscribers")
        let titles = CurrentValueSubject<String, Never>("Welcome")
        weak var weakScreen: Screen?
        do {
            let screen = Screen()
            weakScreen = screen
            // The closure captures `screen` strongly: screen → cancellable → sink → closure → screen.
            screen.cancellable = titles.sink { screen.title = $0 }
            titles.send("Inbox")
            report.check(screen.title == "Inbox", "the screen follows the subject")
            screen.cancellable?.cancel()
        }
        report.check(weakScreen == nil, "cancelling broke the cycle and the screen is gone")

        weak var weakFinished: Screen?
        do {
            let screen = Screen()
            weakFinished = screen
            screen.cancellable = [1, 2, 3].publisher.map { "page \($0)" }.sink { screen.title = $0 }
            report.check(screen.title == "page 3", "the screen saw every page")
        }
        report.check(weakFinished == nil, "completion released the closure that captured the screen")

        weak var weakDashboard: Screen?
        let liveBefore = SubscriptionLedger.liveCount
        do {
            let screen = Screen()
            weakDashboard = screen
            // Tether's one-line answer to `[weak self]`: the owner is held weakly and handed back.
            screen.cancellable = titles.sink(weak: screen) { screen, title in screen.title = title }
            titles.send("Dashboard")
            report.check(screen.title == "Dashboard", "a weak sink delivers while its owner lives")
        }
        report.check(weakDashboard == nil, "the owner of a weak sink is gone although nobody cancelled")
        titles.send("after the owner left")
        report.check(SubscriptionLedger.liveCount == liveBefore, "the next value ended the orphaned subscription")
    }

    private func leakReport() {
        report.section("Basics: the ledger names what keeps an object alive")
        guard SubscriptionLedger.isEnabled else {
            say("  (release build: the ledger is compiled out)")
            return
        }
        let titles = CurrentValueSubject<String, Never>("Welcome")
        let leaky = Screen()
        let serial = SubscriptionLedger.currentSerial
        // The classic cycle: screen → cancellable → sink → closure → screen.
        leaky.cancellable = titles.map { $0.uppercased() }.sink { leaky.title = $0 }
        let entries = SubscriptionLedger.snapshot(since: serial)
        for entry in entries {
            say("  live: \(entry)")
        }
        // Combine's sink has no parameter for a call site: the ledger names the chain.
        report.check(
            entries.map(\.chain).contains("Sink ← Map ← CurrentValueSubject"),
            "the ledger shows the chain that keeps the screen alive")
        leaky.cancellable = nil
        report.check(SubscriptionLedger.snapshot(since: serial).isEmpty, "breaking the cycle ended the subscription")
        // TetherExtras' own entry points take the call site too.
        let weakSerial = SubscriptionLedger.currentSerial
        let weakTitle = titles.map { $0.uppercased() }.sink(weak: leaky) { screen, title in screen.title = title }
        let weakEntries = SubscriptionLedger.snapshot(since: weakSerial)
        for entry in weakEntries {
            say("  live: \(entry)")
        }
        report.check(
            weakEntries.contains { $0.chain == "WeakSink ← Map ← CurrentValueSubject" && $0.line != nil },
            "sink(weak:) also records the line that made it")
        weakTitle.cancel()
    }
}

/// A subscriber that asks for two values, then waits to be asked again.
private final class Paced: Subscriber {
    typealias Input = Int
    typealias Failure = Never
    var received: [Int] = []
    var subscription: (any Subscription)?

    func receive(subscription: any Subscription) {
        self.subscription = subscription
        subscription.request(.max(2))
    }

    func receive(_ input: Int) -> Subscribers.Demand {
        received.append(input)
        return .none
    }

    func receive(completion: Subscribers.Completion<Never>) {
        subscription = nil
    }
}

/// An owner of a subscription, as a view controller would be.
private final class Screen {
    var title = ""
    var cancellable: AnyCancellable?
}
