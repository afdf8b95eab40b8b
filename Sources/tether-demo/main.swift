// The demonstration of Tether's main job: Combine's API on Linux, with subscription lifetimes
// you can see. Each section prints what happened and checks it; the process exits non-zero if
// any check fails.
import Foundation
import Tether

var failures = 0

@MainActor func check(_ condition: Bool, _ what: String) {
    print(condition ? "  ✓ \(what)" : "  ✗ \(what)")
    if !condition { failures += 1 }
}

func section(_ title: String) {
    print("\n== \(title)")
}

// MARK: A subject and a pipeline

section("A subject feeding a pipeline")
let temperatures = PassthroughSubject<Double, Never>()
var alerts: [String] = []
let alerting = temperatures
    .map { celsius in celsius * 9 / 5 + 32 }
    .filter { $0 > 100 }
    .map { "hot: \($0)°F" }
    .sink { alerts.append($0) }
for reading in [20.0, 38.5, 41.0, 12.0] {
    temperatures.send(reading)
}
print("  alerts: \(alerts)")
check(alerts == ["hot: 101.3°F", "hot: 105.8°F"], "only readings above 100°F come through")

// MARK: Demand

section("A subscriber that asks for two values at a time")
final class Paced: Subscriber {
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
let paced = Paced()
(1...6).publisher.subscribe(paced)
check(paced.received == [1, 2], "the publisher stops at the demand: \(paced.received)")
paced.subscription?.request(.max(2))
check(paced.received == [1, 2, 3, 4], "two more on request: \(paced.received)")
paced.subscription?.cancel()
paced.subscription = nil

// MARK: Lifetimes

section("A cancelled subscription releases its subscriber")
final class Screen {
    let name: String
    var title = ""
    var cancellable: AnyCancellable?
    init(name: String) { self.name = name }
    deinit { print("  Screen \(name) deallocated") }
}
let titles = CurrentValueSubject<String, Never>("Welcome")
weak var weakScreen: Screen?
do {
    let screen = Screen(name: "home")
    weakScreen = screen
    // The closure captures `screen` strongly: screen → cancellable → sink → closure → screen.
    screen.cancellable = titles.sink { screen.title = $0 }
    titles.send("Inbox")
    check(screen.title == "Inbox", "the screen follows the subject")
    print("  live subscriptions while subscribed: \(SubscriptionLedger.liveCount)")
    screen.cancellable?.cancel()
}
check(weakScreen == nil, "cancelling broke the cycle and the screen is gone")

section("A finished stream releases its subscriber's closures")
weak var weakFinished: Screen?
do {
    let screen = Screen(name: "report")
    weakFinished = screen
    screen.cancellable = [1, 2, 3].publisher.map { "page \($0)" }.sink { screen.title = $0 }
    check(screen.title == "page 3", "the screen saw every page")
}
check(weakFinished == nil, "completion released the closure that captured the screen")

section("A weak sink lets its owner go without a cancel")
weak var weakDashboard: Screen?
let liveBeforeDashboard = SubscriptionLedger.liveCount
do {
    let screen = Screen(name: "dashboard")
    weakDashboard = screen
    // Tether's one-line answer to `[weak self]`: the owner is held weakly and handed back.
    screen.cancellable = titles.sink(weak: screen) { screen, title in screen.title = title }
    titles.send("Dashboard")
    check(screen.title == "Dashboard", "the screen follows the subject")
}
check(weakDashboard == nil, "the screen is gone although nobody cancelled")
titles.send("after the owner left")
check(SubscriptionLedger.liveCount == liveBeforeDashboard,
      "the next value ended the orphaned subscription")

section("The ledger names what keeps an object alive")
if SubscriptionLedger.isEnabled {
    let leaky = Screen(name: "leaky")
    // The classic cycle: screen → cancellable → sink → closure → screen.
    leaky.cancellable = titles.map { $0.uppercased() }.sink { leaky.title = $0 }
    for entry in SubscriptionLedger.snapshot() {
        print("  live: \(entry)")
    }
    let named = SubscriptionLedger.snapshot().contains { $0.chain.contains("Sink") && $0.line != nil }
    check(named, "the ledger shows the chain and the line that made it")
    leaky.cancellable = nil
} else {
    print("  (release build: the ledger is compiled out)")
}

section("The ledger of live subscriptions")
alerting.cancel()
let live = SubscriptionLedger.liveCount
if SubscriptionLedger.isEnabled {
    print("  live subscriptions now: \(live) \(SubscriptionLedger.snapshot())")
    check(live == 0, "nothing is left alive")
} else {
    print("  (release build: the ledger is compiled out)")
}

print(failures == 0 ? "\nAll checks passed." : "\n\(failures) check(s) failed.")
if failures > 0 {
    exit(1)
}
