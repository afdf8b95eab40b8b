import Foundation
import TetherCore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension URLSession {
    /// Returns a publisher that wraps a URL session data task for a given URL.
    ///
    /// The publisher publishes data when the task completes, or terminates if the task fails
    /// with an error.
    /// - Parameter url: The URL for which to create a data task.
    /// - Returns: A publisher that wraps a data task for the URL.
    public func dataTaskPublisher(for url: URL) -> URLSession.DataTaskPublisher {
        DataTaskPublisher(request: URLRequest(url: url), session: self)
    }

    /// Returns a publisher that wraps a URL session data task for a given URL request.
    ///
    /// The publisher publishes data when the task completes, or terminates if the task fails
    /// with an error.
    /// - Parameter request: The URL request for which to create a data task.
    /// - Returns: A publisher that wraps a data task for the URL request.
    public func dataTaskPublisher(for request: URLRequest) -> URLSession.DataTaskPublisher {
        DataTaskPublisher(request: request, session: self)
    }

    /// A publisher that delivers the results of performing URL session data tasks.
    ///
    /// Each subscription creates and resumes its own data task when the subscriber first
    /// demands a value, and resumes it again on each later request, as Combine does. On Linux
    /// the task is resumed once only: there a `resume()` that reaches the task as it completes
    /// stops the process (FoundationNetworking traps with "Trying to access a behaviour for a
    /// task that in not in the registry"), and a later request can race with the completion.
    /// When the task completes with a response, the subscriber receives the data (empty when
    /// there is none) and the response, then `.finished`; when it fails, the subscription fails
    /// with the task's `URLError` (`URLError(.unknown)` for an error of another type, or for no
    /// response at all). Both arrive on the session's delegate queue.
    ///
    /// On Linux, FoundationNetworking can stop the process when a data task is cancelled just
    /// after it starts on a session that has a `URLCache` ("Trying to access a behaviour for a
    /// task that in not in the registry"): give a session whose subscriptions you may cancel
    /// early a configuration whose `urlCache` is `nil`.
    ///
    /// Cancelling the subscription cancels the data task. Requesting `.none` is a contract
    /// violation and traps.
    public struct DataTaskPublisher: TetherCore.Publisher, Sendable {
        /// The kind of values published by this publisher: the data and the response.
        public typealias Output = (data: Data, response: URLResponse)

        /// The kind of errors this publisher might publish.
        public typealias Failure = URLError

        /// The URL request performed by the data task associated with this publisher.
        public let request: URLRequest

        /// The URL session that performs the data task associated with this publisher.
        public let session: URLSession

        /// Creates a data task publisher from the provided URL request and URL session.
        /// - Parameters:
        ///   - request: The URL request from which to create a URL session data task.
        ///   - session: The URL session to create the data task.
        public init(request: URLRequest, session: URLSession) {
            self.request = request
            self.session = session
        }

        /// Attaches `subscriber`; the data task starts on its first demand.
        /// - Parameter subscriber: The subscriber to attach.
        public func receive<S: Subscriber>(subscriber: S)
        where S.Input == (data: Data, response: URLResponse), S.Failure == URLError {
            subscriber.receive(subscription: DataTaskSubscription(downstream: subscriber, publisher: self))
        }
    }
}

/// A data task subscription, seen from the task's completion handler, whatever its subscriber's
/// type.
private protocol DataTaskCompletionReceiver: AnyObject, Sendable {
    func complete(data: Data?, response: URLResponse?, error: (any Error)?)
}

/// One subscriber's data task.
///
/// The task's completion handler holds the subscription until the task ends, so a subscriber
/// that keeps no reference to its subscription still gets its result; `cancel` cancels the task
/// and lets go of the subscriber at once.
// @unchecked Sendable: the subscriber, the task and the demand live in `state`, touched only under
// its lock; the publisher is an immutable value.
private final class DataTaskSubscription<Downstream: Subscriber>: Subscription, DataTaskCompletionReceiver,
    CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
where Downstream.Input == (data: Data, response: URLResponse), Downstream.Failure == URLError {
    private enum Task {
        case notStarted
        /// The task is being created outside the lock.
        case starting
        case running(URLSessionDataTask)
        case ended
    }

    private struct State {
        /// `nil` once completed or cancelled.
        var downstream: Downstream?
        var task: Task = .notStarted
        /// What the subscriber asked for, shown in the mirror as Combine's shows it.
        var demand: Subscribers.Demand = .none
    }

    private let state: Locked<State>
    private let publisher: URLSession.DataTaskPublisher

    init(downstream: Downstream, publisher: URLSession.DataTaskPublisher) {
        state = Locked(State(downstream: downstream))
        self.publisher = publisher
        Ledger.enter(self)
    }

    deinit {
        Ledger.leave(self)
    }

    func request(_ demand: Subscribers.Demand) {
        precondition(demand > 0, "Demand must not be zero: URLSession.DataTaskPublisher was asked for .none")
        let (starts, running) = state.withLock { state -> (Bool, URLSessionDataTask?) in
            guard state.downstream != nil else { return (false, nil) }
            state.demand += demand
            switch state.task {
            case .notStarted:
                state.task = .starting
                return (true, nil)
            case .running(let task):
                // As in Combine, each later request resumes the task again (Foundation ignores
                // the resume of a running or finished task). FoundationNetworking stops the
                // process when a resume meets the task's completion, so on Linux the task is
                // resumed once.
                #if canImport(FoundationNetworking)
                return (false, nil)
                #else
                return (false, task)
                #endif
            case .starting, .ended:
                return (false, nil)
            }
        }
        guard starts else {
            running?.resume()
            return
        }
        let receiver: any DataTaskCompletionReceiver = self
        let task = publisher.session.dataTask(with: publisher.request) { data, response, error in
            receiver.complete(data: data, response: response, error: error)
        }
        let cancelledMeanwhile = state.withLock { state -> Bool in
            guard case .starting = state.task else { return true }
            state.task = .running(task)
            return false
        }
        if cancelledMeanwhile {
            task.cancel()
        } else {
            task.resume()
        }
    }

    func complete(data: Data?, response: URLResponse?, error: (any Error)?) {
        let taken = state.withLock { state -> Downstream? in
            defer { state = State(downstream: nil, task: .ended) }
            return state.downstream
        }
        guard let downstream = taken else { return }
        if let error {
            downstream.receive(completion: .failure(error as? URLError ?? URLError(.unknown)))
        } else if let response {
            _ = downstream.receive((data: data ?? Data(), response: response))
            downstream.receive(completion: .finished)
        } else {
            downstream.receive(completion: .failure(URLError(.unknown)))
        }
    }

    func cancel() {
        let (released, task) = state.withLock { state -> (Downstream?, Task) in
            defer { state = State(downstream: nil, task: .ended) }
            return (state.downstream, state.task)
        }
        guard released != nil else { return }
        if case .running(let task) = task {
            task.cancel()
        }
    }

    var description: String { "DataTaskPublisher" }

    /// Combine's children: the running task, the subscriber and the publisher until the end, and
    /// the demand asked for.
    var customMirror: Mirror {
        let (task, downstream, demand) = state.withLock {
            state -> (URLSessionDataTask?, Downstream?, Subscribers.Demand) in
            let task: URLSessionDataTask? = if case .running(let task) = state.task { task } else { nil }
            return (task, state.downstream, state.demand)
        }
        let parent = downstream == nil ? nil : publisher
        return Mirror(
            self,
            children: [
                "task": task as Any, "downstream": downstream as Any, "parent": parent as Any, "demand": demand,
            ])
    }

    var playgroundDescription: Any { description }
}
