import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// An ephemeral session with no URL cache, for tests that cancel data tasks.
///
/// On Linux, FoundationNetworking reads a session's `URLCache` on a background queue before a
/// task's protocol exists; a `cancel()` that lands in that window reports the task's failure after
/// the task has left the session's registry, and Foundation then stops the process ("Trying to
/// access a behaviour for a task that in not in the registry"). Without a cache there is no such
/// window.
public func makeUncachedSession() -> URLSession {
    let configuration = URLSessionConfiguration.ephemeral
    configuration.urlCache = nil
    return URLSession(configuration: configuration)
}
