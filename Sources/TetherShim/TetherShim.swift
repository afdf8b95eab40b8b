// One import for code that runs on every platform: Apple's Combine where the platform has it,
// Tether elsewhere. The two are the same API, so the code that follows compiles against either.
// TetherExtras is not part of the shim: it extends Tether's protocols, not Combine's.
#if canImport(Combine)
@_exported import Combine
#else
@_exported import Tether
#endif
