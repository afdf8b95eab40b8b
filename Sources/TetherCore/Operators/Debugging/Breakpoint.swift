#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension Publisher {
    /// Raises a debugger signal when a provided closure needs to stop the process in the
    /// debugger.
    ///
    /// When any of the closures returns `true`, the publisher raises `SIGTRAP` (which stops
    /// the process in an attached debugger, and ends it otherwise). Values, completions,
    /// demand and cancellation pass through unchanged; each closure runs on the thread that
    /// delivers the signal it observes.
    /// - Parameters:
    ///   - receiveSubscription: A closure that executes when the publisher receives a
    ///     subscription. Return `true` from this closure to raise `SIGTRAP`, or `false` to
    ///     continue.
    ///   - receiveOutput: A closure that executes when the publisher receives a value. Return
    ///     `true` from this closure to raise `SIGTRAP`, or `false` to continue.
    ///   - receiveCompletion: A closure that executes when the publisher receives a
    ///     completion. Return `true` from this closure to raise `SIGTRAP`, or `false` to
    ///     continue.
    /// - Returns: A publisher that raises a debugger signal when one of the provided closures
    ///   returns `true`.
    @inlinable
    public consuming func breakpoint(
        receiveSubscription: ((any Subscription) -> Bool)? = nil,
        receiveOutput: ((Output) -> Bool)? = nil,
        receiveCompletion: ((Subscribers.Completion<Failure>) -> Bool)? = nil
    ) -> Publishers.Breakpoint<Self> {
        Publishers.Breakpoint(
            upstream: self, receiveSubscription: receiveSubscription, receiveOutput: receiveOutput,
            receiveCompletion: receiveCompletion)
    }

    /// Raises a debugger signal upon receiving a failure.
    ///
    /// When the upstream publisher fails with an error, this publisher raises the `SIGTRAP`
    /// signal, which stops the process in the debugger. Otherwise, this publisher passes
    /// through values and completions as-is.
    /// - Returns: A publisher that raises a debugger signal upon receiving a failure.
    @inlinable
    public func breakpointOnError() -> Publishers.Breakpoint<Self> {
        breakpoint(receiveCompletion: { completion in
            if case .failure = completion { return true }
            return false
        })
    }
}

extension Publishers {
    /// A publisher that raises a debugger signal when a provided closure needs to stop the
    /// process in the debugger.
    ///
    /// When any of the provided closures returns `true`, this publisher raises the `SIGTRAP`
    /// signal to stop the process in the debugger. Otherwise, this publisher passes through
    /// values and completions as-is; the subscription is the upstream's own.
    public struct Breakpoint<Upstream: Publisher>: Publisher {
        /// The kind of values published by this publisher: the upstream's.
        public typealias Output = Upstream.Output

        /// The kind of errors this publisher might publish: the upstream's.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// A closure that executes when the publisher receives a subscription, and can raise a
        /// debugger signal by returning a true Boolean value.
        public let receiveSubscription: ((any Subscription) -> Bool)?

        /// A closure that executes when the publisher receives output from the upstream
        /// publisher, and can raise a debugger signal by returning a true Boolean value.
        public let receiveOutput: ((Upstream.Output) -> Bool)?

        /// A closure that executes when the publisher receives completion, and can raise a
        /// debugger signal by returning a true Boolean value.
        public let receiveCompletion: ((Subscribers.Completion<Failure>) -> Bool)?

        /// Creates a breakpoint publisher with the provided upstream publisher and
        /// breakpoint-raising closures.
        /// - Parameters:
        ///   - upstream: The publisher from which this publisher receives elements.
        ///   - receiveSubscription: A closure that executes when the publisher receives a
        ///     subscription, and can raise a debugger signal by returning a true Boolean value.
        ///   - receiveOutput: A closure that executes when the publisher receives output from
        ///     the upstream publisher, and can raise a debugger signal by returning a true
        ///     Boolean value.
        ///   - receiveCompletion: A closure that executes when the publisher receives
        ///     completion, and can raise a debugger signal by returning a true Boolean value.
        @inlinable
        public init(
            upstream: Upstream,
            receiveSubscription: ((any Subscription) -> Bool)? = nil,
            receiveOutput: ((Upstream.Output) -> Bool)? = nil,
            receiveCompletion: ((Subscribers.Completion<Failure>) -> Bool)? = nil
        ) {
            self.upstream = upstream
            self.receiveSubscription = receiveSubscription
            self.receiveOutput = receiveOutput
            self.receiveCompletion = receiveCompletion
        }

        /// Attaches `subscriber` through a value-type relay: no allocation, unless the relay is
        /// large and its upstream would erase it anyway (see `subscribe(relay:)`).
        /// - Parameter subscriber: The subscriber to attach.
        @inlinable @inline(__always)
        public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(relay: Inner(downstream: subscriber, breakpoint: self))
        }
    }
}

extension Publishers.Breakpoint {
    @usableFromInline
    internal struct Inner<Downstream: Subscriber>: Subscriber, CustomStringConvertible,
        CustomReflectable, CustomPlaygroundDisplayConvertible
    where Downstream.Input == Output, Downstream.Failure == Failure {
        @usableFromInline let downstream: Downstream
        @usableFromInline let receiveSubscription: ((any Subscription) -> Bool)?
        @usableFromInline let receiveOutput: ((Output) -> Bool)?
        @usableFromInline let receiveCompletion: ((Subscribers.Completion<Failure>) -> Bool)?
        @usableFromInline let combineIdentifier = CombineIdentifier()

        @inlinable
        init(downstream: Downstream, breakpoint: Publishers.Breakpoint<Upstream>) {
            self.downstream = downstream
            receiveSubscription = breakpoint.receiveSubscription
            receiveOutput = breakpoint.receiveOutput
            receiveCompletion = breakpoint.receiveCompletion
        }

        @inlinable
        func receive(subscription: any Subscription) {
            if receiveSubscription?(subscription) == true {
                raiseBreakpointSignal()
            }
            downstream.receive(subscription: subscription)
        }

        @inlinable
        func receive(_ input: Output) -> Subscribers.Demand {
            if receiveOutput?(input) == true {
                raiseBreakpointSignal()
            }
            return downstream.receive(input)
        }

        @inlinable
        func receive(completion: Subscribers.Completion<Failure>) {
            if receiveCompletion?(completion) == true {
                raiseBreakpointSignal()
            }
            downstream.receive(completion: completion)
        }

        @usableFromInline var description: String { "Breakpoint" }
        @usableFromInline var customMirror: Mirror { Mirror(self, children: [:]) }
        @usableFromInline var playgroundDescription: Any { description }
    }
}

/// Stops the process in the debugger, as Combine's breakpoints do: `SIGTRAP`.
///
/// The signal is raised with its default action: a debugger stops the process and may let it
/// go on; without one, the process ends, as on Combine. A handler installed for `SIGTRAP` would
/// otherwise decide, and the Swift runtime's backtracer (on by default on Linux) handles it by
/// returning, which let the process run on as if no breakpoint had fired. The handler is put
/// back when the process goes on.
@usableFromInline
internal func raiseBreakpointSignal() {
    var defaultAction = sigaction()
    var previous = sigaction()
    #if canImport(Darwin)
    defaultAction.__sigaction_u.__sa_handler = SIG_DFL
    #elseif canImport(Musl)
    defaultAction.__sa_handler.sa_handler = SIG_DFL
    #else
    defaultAction.__sigaction_handler.sa_handler = SIG_DFL
    #endif
    sigaction(SIGTRAP, &defaultAction, &previous)
    raise(SIGTRAP)
    sigaction(SIGTRAP, &previous, nil)
}

extension Publishers.Breakpoint: SubscriberErasing {}
