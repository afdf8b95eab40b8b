/// What a relay does with a signal that breaks the contract by arriving before the upstream's
/// subscription. Combine's operators differ here, and Tether follows each one: it traps only
/// where Combine does.
@usableFromInline
package enum BeforeSubscription: Sendable {
    /// A value, a completion or a request stops the process; a `cancel` ends the relay, so the
    /// subscription is cancelled when it comes (`prefix(while:)`, `tryFilter`, `tryCompactMap`).
    case trap
    /// A value (answered with `.none`), a completion, a request and a `cancel` are all ignored
    /// (`drop(while:)`, `output(in:)`).
    case ignore
    /// A value goes through the operator to the downstream as if subscribed, and the downstream's
    /// demand goes back; a completion, a request and a `cancel` are ignored (`tryMap`, `tryScan`).
    case forwardValues
    /// Like `forwardValues`, and a completion is passed on too, ending the relay (`encode`,
    /// `decode`).
    case forwardAll
}
