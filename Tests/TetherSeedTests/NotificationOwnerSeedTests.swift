// Seed 003 ("a retain cycle in RAC"), written in Combine. The article's view controller observes
// UIApplicationDidBecomeActiveNotification through `rac_addObserverForName:object:`, limited by
// `takeUntil:[self rac_willDeallocSignal]`, and sets `self.title` in the block:
//
//   NSNotificationCenter -> observer -> usingBlock -> subscriber -> nextBlock -> self
//
// The observer is removed only when the signal ends, which waits for `self` to deallocate, which
// the chain prevents. The Combine equivalent keeps the subscription in `self`'s cancellables
// (it ends when `self` goes), and has the same cycle; the fix is the same: capture `self` weakly.
import Foundation
import Tether
import TetherExtras
import TetherTesting
import XCTest

extension Notification.Name {
    /// Stands in for `UIApplication.didBecomeActiveNotification`, which Linux does not have.
    static let applicationDidBecomeActive = Notification.Name("TetherSeedTests.applicationDidBecomeActive")
}

/// The article's first version: the closure captures `self` strongly.
final class CyclingViewController {
    var title: String? = "Loading"
    var cancellables = Set<AnyCancellable>()

    func viewDidLoad() {
        NotificationCenter.default.publisher(for: .applicationDidBecomeActive, object: nil)
            .sink { _ in
                self.title = ""
            }
            .store(in: &cancellables)
    }
}

/// The article's fix (`@weakify(self)` / `@strongify(self)`): the closure captures `self` weakly.
final class WeakViewController {
    var title: String? = "Loading"
    var cancellables = Set<AnyCancellable>()

    func viewDidLoad() {
        NotificationCenter.default.publisher(for: .applicationDidBecomeActive, object: nil)
            .sink { [weak self] _ in
                guard let self = self else { return }
                self.title = ""
            }
            .store(in: &cancellables)
    }
}

final class NotificationOwnerSeedTests: XCTestCase {
    override func tearDown() {
        let live = SubscriptionLedger.liveAfterSettling()
        XCTAssertTrue(live.isEmpty, SubscriptionLedger.leakReport(live))
        super.tearDown()
    }

    private func becomeActive() {
        NotificationCenter.default.post(name: .applicationDidBecomeActive, object: nil)
    }

    func testStrongSelfKeepsTheOwnerAliveThroughTheCentersObserver() {
        weak var weakController: CyclingViewController?
        do {
            let controller = CyclingViewController()
            weakController = controller
            controller.viewDidLoad()
        }
        XCTAssertNotNil(weakController, "center -> observer -> subscription -> sink -> self: a cycle")
        becomeActive()
        XCTAssertEqual(weakController?.title, "", "the leaked controller still reacts")
        // Break the cycle by hand, as nothing else will.
        weakController?.cancellables.removeAll()
        XCTAssertNil(weakController)
    }

    func testWeakSelfLetsTheOwnerGoAndRemovesTheObserver() {
        weak var weakController: WeakViewController?
        do {
            let controller = WeakViewController()
            weakController = controller
            controller.viewDidLoad()
            becomeActive()
            XCTAssertEqual(controller.title, "")
            if SubscriptionLedger.isEnabled {  // the ledger is compiled out of optimised builds
                XCTAssertTrue(
                    SubscriptionLedger.snapshot().contains { $0.type.hasPrefix("NotificationSubscription") },
                    "the observer's subscription")
            }
        }
        XCTAssertNil(weakController, "the owner deallocates")
        XCTAssertEqual(SubscriptionLedger.snapshot(), [], "its cancellables cancelled the subscription")
        becomeActive()
    }
}
