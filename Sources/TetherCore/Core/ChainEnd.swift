/// A subscriber object that ends a chain (Combine's `Sink` and `Assign`, TetherExtras' sinks):
/// the ``Ledger`` records the chain such a subscriber is attached to by
/// `subscribe(_:)`, and skips every other subscriber, so that the operators' inner
/// subscriptions cost no reflection.
package protocol ChainEnd: AnyObject {}
