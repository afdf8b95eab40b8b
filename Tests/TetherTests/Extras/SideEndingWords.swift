import Tether
@testable import TetherExtras
import TetherTesting

/// The words state-machine tests of `flatMapFirst` and `withLatestFrom` describe a subscriber
/// and an ending with.
extension NamedSubscriptions {
    /// `downstream` for the test's subscriber, `released` when the state handed out none.
    func name<Downstream: AnyObject>(_ subscriber: Downstream?, downstream: Downstream) -> String {
        guard let subscriber else { return "released" }
        return subscriber === downstream ? "downstream" : "another subscriber"
    }

    /// What the ending cancels and completes, or `goes on` when the stream does not end.
    func describe<Downstream: AnyObject>(downstream: Downstream, _ ending: SideEnding<Downstream>?) -> String {
        guard let ending else { return "goes on" }
        return "cancel \(self(ending.upstream)) and \(self(ending.side)), "
            + "\(ending.completion) to \(name(ending.downstream, downstream: downstream))"
    }

    /// What a cancel lets go of and cancels.
    func describeCancel<Downstream: AnyObject>(
        downstream: Downstream,
        _ cancelled: (Downstream?, (any Subscription)?, (any Subscription)?)
    ) -> String {
        let (released, upstream, side) = cancelled
        return "cancel: let go of \(name(released, downstream: downstream)), cancel \(self(upstream)) and \(self(side))"
    }
}
