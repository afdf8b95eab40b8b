extension Publishers {
    /// A publisher that emits all of one publisher's elements before those from another
    /// publisher.
    ///
    /// It subscribes to ``suffix`` only after ``prefix`` finishes, and asks it at once for the
    /// demand the subscriber made that `prefix` did not meet. A failure of either ends the
    /// stream; `suffix` is then never subscribed. Requests go to whichever publisher is current.
    /// Failures pass through as `Prefix.Failure`. Signals go out on the thread that delivers the
    /// current publisher's signal. A request for `.none` is passed on to the current publisher,
    /// as in Combine.
    ///
    /// As in Combine, a value (answered with `.none`) or a completion that comes from `prefix`
    /// before its subscription or after its completion, or from `suffix` before its own, is
    /// ignored; so is a value `prefix` sends beyond the demand the subscriber made (`suffix`'s
    /// values are passed on as they come). The subscription holds its subscriber for its whole
    /// life, as Combine's does; each publisher is subscribed to by its own subscriber, which
    /// shares the subscription's `combineIdentifier`.
    public struct Concatenate<Prefix: Publisher, Suffix: Publisher>: Publisher
    where Prefix.Failure == Suffix.Failure, Prefix.Output == Suffix.Output {
        /// The kind of values published by this publisher: the prefix's and the suffix's.
        public typealias Output = Suffix.Output

        /// The kind of errors this publisher might publish: the prefix's and the suffix's.
        public typealias Failure = Suffix.Failure

        /// The publisher to republish, in its entirety, before republishing elements from
        /// `suffix`.
        public let prefix: Prefix

        /// The publisher to republish only after `prefix` finishes.
        public let suffix: Suffix

        /// Creates a publisher that emits all of one publisher's elements before those from
        /// another publisher.
        /// - Parameters:
        ///   - prefix: The publisher to republish, in its entirety, before republishing elements
        ///     from `suffix`.
        ///   - suffix: The publisher to republish only after `prefix` finishes.
        @inlinable
        public init(prefix: Prefix, suffix: Suffix) {
            self.prefix = prefix
            self.suffix = suffix
        }

        /// Attaches `subscriber` through a subscription described as "Concatenate".
        /// - Parameter subscriber: The subscriber to attach.
        @inlinable
        public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Output, S.Failure == Failure {
            prefix.subscribe(Side<S, PrefixMark>(inner: Inner(downstream: subscriber, suffix: suffix), part: .first))
        }
    }
}

extension Publishers.Concatenate {
    /// Which of the two publishers a signal comes from: the prefix is the first source, the
    /// suffix the second.
    @usableFromInline
    internal typealias Part = SuccessionState.Source

    /// The subscription: subscribed first to the prefix, then to the suffix, each through its
    /// own ``Side``, so a signal says which publisher sent it.
    ///
    /// Which publisher is current, and the demand still unmet, live in a ``SuccessionState`` under
    /// the `control` lock, so a request from any thread either reaches the current publisher or
    /// is counted for the suffix to receive when it subscribes. The downstream and the suffix are
    /// handed over through a ``ReleaseHandOff``; a value takes one lock, to count the demand it
    /// meets.
    @usableFromInline
    internal final class Inner<Downstream: Subscriber>: Subscription, CustomStringConvertible,
        CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
    where Downstream.Input == Output, Downstream.Failure == Failure {
        @usableFromInline
        internal struct Owned {
            @usableFromInline let downstream: Downstream
            @usableFromInline let suffix: Suffix

            @inlinable
            init(downstream: Downstream, suffix: Suffix) {
                self.downstream = downstream
                self.suffix = suffix
            }
        }

        @usableFromInline
        internal let control = Locked(SuccessionState())

        @usableFromInline
        internal let handOff = ReleaseHandOff()

        /// Read and written only on the serial path, or by the side the hand-off names.
        @usableFromInline
        @exclusivity(unchecked)
        internal var owned: Owned?

        /// The subscriber again, held for the subscription's whole life as Combine's is;
        /// `owned` still says who is delivered to.
        @usableFromInline
        internal let heldSubscriber: Downstream

        @inlinable
        internal init(downstream: Downstream, suffix: Suffix) {
            owned = Owned(downstream: downstream, suffix: suffix)
            heldSubscriber = downstream
            Ledger.enter(self)
        }

        deinit {
            Ledger.leave(self)
        }

        @inlinable
        internal func receive(subscription: any Subscription, from part: Part) {
            guard let unmet = control.withLock({ $0.attach(subscription, from: part) }) else {
                subscription.cancel()
                return
            }
            guard case .first = part else {
                if unmet > 0 { subscription.request(unmet) }
                return
            }
            // Nobody can have stopped the stream yet: the downstream has not seen this object.
            handOff.open()
            if let downstream = owned?.downstream {
                downstream.receive(subscription: self)
            }
            if handOff.leave() {
                owned = nil
            }
        }

        @inlinable
        internal func receive(_ input: Output, from part: Part) -> Subscribers.Demand {
            // Delivered through `heldSubscriber`, the same subscriber in a `let`: binding `owned`
            // copied it and the suffix, a retain and a release of each reference they hold.
            guard handOff.enterIfSubscribed(), owned != nil else { return .none }
            // The one lock a value takes: it also turns away a value from a publisher that is
            // not current (the suffix before its subscription, the prefix after its finish) and,
            // as Combine does, one the prefix sends beyond the demand.
            let current = control.withLock { control -> Bool in
                switch (control.status, part) {
                case (.first, .first):
                    return control.meetOne()
                case (.second, .second):
                    return true
                default:
                    return false
                }
            }
            let demand = current ? heldSubscriber.receive(input) : .none
            if demand > 0, case .first = part {
                control.withLock { $0.unmet += demand }
            }
            if handOff.leave() {
                self.owned = nil
                return .none
            }
            return demand
        }

        @inlinable
        internal func receive(completion: Subscribers.Completion<Failure>, from part: Part) {
            // The prefix's finish hands over to the suffix; any other completion of the current
            // publisher ends the stream.
            let handsOver = if case .first = part, case .finished = completion { true } else { false }
            guard control.withLock({ $0.end(part, handingOver: handsOver) }) else { return }
            if handsOver {
                // Take the suffix as a delivery, so a concurrent cancel cannot release it under
                // us, and subscribe after leaving: the suffix may deliver from inside subscribe.
                guard handOff.enter("Concatenate"), let suffix = owned?.suffix else { return }
                if handOff.leave() {
                    owned = nil
                    return
                }
                suffix.subscribe(Side<Downstream, SuffixMark>(inner: self, part: .second))
            } else {
                handOff.stopFromSerialPath()
                let released = owned
                owned = nil
                released?.downstream.receive(completion: completion)
            }
        }

        @inlinable
        internal func request(_ demand: Subscribers.Demand) {
            // Combine passes even a request for `.none` on to the current publisher.
            let current = control.withLock { $0.request(demand) }
            current.request(demand)
        }

        @inlinable
        internal func cancel() {
            // Any cancel ends the stream, even between the two publishers: the suffix is then
            // cancelled when it hands over its subscription.
            let (previous, current) = control.withLock { $0.stop() }
            switch previous {
            case .first, .second, .awaitingSecond: break
            case .awaitingFirst, .over: return
            }
            if handOff.stopFromOutside() {
                owned = nil
            }
            current.cancel()
        }

        @usableFromInline
        internal var description: String { "Concatenate" }

        /// No children: the downstream belongs to the serial path and cannot be read from here.
        @usableFromInline
        internal var customMirror: Mirror { Mirror(self, children: [:]) }

        @usableFromInline
        internal var playgroundDescription: Any { description }
    }

    /// What each publisher is subscribed with: passes its signals to the subscription, marked
    /// with the part it plays, and is identified as the subscription is. `Mark` only makes the
    /// prefix's and the suffix's sides types of their own, as Combine's are.
    @usableFromInline
    internal struct Side<Downstream: Subscriber, Mark>: Subscriber, CustomStringConvertible, CustomReflectable,
        CustomPlaygroundDisplayConvertible
    where Downstream.Input == Output, Downstream.Failure == Failure {
        @usableFromInline let inner: Inner<Downstream>
        @usableFromInline let part: Part

        @inlinable
        init(inner: Inner<Downstream>, part: Part) {
            self.inner = inner
            self.part = part
        }

        @inlinable
        var combineIdentifier: CombineIdentifier { inner.combineIdentifier }

        @inlinable
        func receive(subscription: any Subscription) {
            inner.receive(subscription: subscription, from: part)
        }

        @inlinable
        func receive(_ input: Output) -> Subscribers.Demand {
            inner.receive(input, from: part)
        }

        @inlinable
        func receive(completion: Subscribers.Completion<Failure>) {
            inner.receive(completion: completion, from: part)
        }

        @usableFromInline var description: String { inner.description }
        @usableFromInline var customMirror: Mirror { inner.customMirror }
        @usableFromInline var playgroundDescription: Any { inner.playgroundDescription }
    }
}

/// Makes the side a ``Publishers/Concatenate`` subscribes its prefix with a type of its own.
@usableFromInline
internal enum PrefixMark {}

/// Makes the side a ``Publishers/Concatenate`` subscribes its suffix with a type of its own.
@usableFromInline
internal enum SuffixMark {}

extension Publishers.Concatenate: Equatable where Prefix: Equatable, Suffix: Equatable {}

extension Publishers.Concatenate: Sendable where Prefix: Sendable, Suffix: Sendable {}

extension Publisher {
    /// Appends a publisher's output with the specified elements.
    ///
    /// The elements are published, as demanded, after this publisher finishes.
    /// - Parameter elements: Elements to publish after this publisher's elements.
    /// - Returns: A publisher that appends the specified elements after this publisher's
    ///   elements.
    @inlinable
    public func append(_ elements: Output...) -> Publishers.Concatenate<Self, Publishers.Sequence<[Output], Failure>> {
        append(Publishers.Sequence(sequence: elements))
    }

    /// Appends a publisher's output with the specified sequence.
    /// - Parameter elements: A sequence of elements to publish after this publisher's elements.
    /// - Returns: A publisher that appends the sequence of elements after this publisher's
    ///   elements.
    @inlinable
    public func append<S: Sequence>(_ elements: S) -> Publishers.Concatenate<Self, Publishers.Sequence<S, Failure>>
    where Output == S.Element {
        append(Publishers.Sequence(sequence: elements))
    }

    /// Appends the output of this publisher with the elements emitted by the given publisher.
    ///
    /// `publisher` is subscribed only after this publisher finishes, and receives the demand this
    /// publisher did not meet.
    /// - Parameter publisher: The appending publisher.
    /// - Returns: A publisher that appends the appending publisher's elements after this
    ///   publisher's elements.
    @inlinable
    public consuming func append<P: Publisher>(_ publisher: P) -> Publishers.Concatenate<Self, P>
    where Failure == P.Failure, Output == P.Output {
        Publishers.Concatenate(prefix: self, suffix: publisher)
    }

    /// Prefixes a publisher's output with the specified values.
    /// - Parameter elements: The elements to publish before this publisher's elements.
    /// - Returns: A publisher that prefixes the specified elements prior to this publisher's
    ///   elements.
    @inlinable
    public func prepend(_ elements: Output...) -> Publishers.Concatenate<Publishers.Sequence<[Output], Failure>, Self> {
        prepend(Publishers.Sequence(sequence: elements))
    }

    /// Prefixes a publisher's output with the specified sequence.
    /// - Parameter elements: A sequence of elements to publish before this publisher's elements.
    /// - Returns: A publisher that prefixes the sequence of elements prior to this publisher's
    ///   elements.
    @inlinable
    public func prepend<S: Sequence>(_ elements: S) -> Publishers.Concatenate<Publishers.Sequence<S, Failure>, Self>
    where Output == S.Element {
        prepend(Publishers.Sequence(sequence: elements))
    }

    /// Prefixes the output of this publisher with the elements emitted by the given publisher.
    ///
    /// This publisher is subscribed only after `publisher` finishes.
    /// - Parameter publisher: The prefixing publisher.
    /// - Returns: A publisher that prefixes the prefixing publisher's elements prior to this
    ///   publisher's elements.
    @inlinable
    public consuming func prepend<P: Publisher>(_ publisher: P) -> Publishers.Concatenate<P, Self>
    where Failure == P.Failure, Output == P.Output {
        Publishers.Concatenate(prefix: publisher, suffix: self)
    }
}

extension Publishers.Sequence where Elements: RangeReplaceableCollection {
    /// Appends, right away, the given elements to the collection.
    /// - Parameter elements: The elements to publish after these.
    /// - Returns: One sequence publisher of the collection with the elements appended.
    @inlinable
    public func append(_ elements: Output...) -> Publishers.Sequence<Elements, Failure> {
        append(elements)
    }

    /// Appends, right away, the elements of another sequence publisher.
    /// - Parameter publisher: The sequence publisher whose elements come after these.
    /// - Returns: One sequence publisher of both collections' elements.
    @inlinable
    public func append(_ publisher: Publishers.Sequence<Elements, Failure>) -> Publishers.Sequence<Elements, Failure> {
        Publishers.Sequence(sequence: sequence + publisher.sequence)
    }

    /// Appends, right away, the elements of a sequence.
    /// - Parameter elements: The elements to publish after these.
    /// - Returns: One sequence publisher of both sequences' elements.
    @inlinable
    public func append<S: Swift.Sequence>(_ elements: S) -> Publishers.Sequence<Elements, Failure>
    where Elements.Element == S.Element {
        Publishers.Sequence(sequence: sequence + elements)
    }

    /// Prepends, right away, the elements of another sequence publisher.
    /// - Parameter publisher: The sequence publisher whose elements come before these.
    /// - Returns: One sequence publisher of both collections' elements.
    @inlinable
    public func prepend(_ publisher: Publishers.Sequence<Elements, Failure>) -> Publishers.Sequence<Elements, Failure> {
        Publishers.Sequence(sequence: publisher.sequence + sequence)
    }

    /// Prepends, right away, the given elements to the collection.
    /// - Parameter elements: The elements to publish before these.
    /// - Returns: One sequence publisher of the collection with the elements in front.
    @inlinable
    public func prepend(_ elements: Output...) -> Publishers.Sequence<Elements, Failure> {
        prepend(elements)
    }

    /// Prepends, right away, the elements of a sequence.
    /// - Parameter elements: The elements to publish before these.
    /// - Returns: One sequence publisher of both sequences' elements, `elements` first.
    @inlinable
    public func prepend<S: Swift.Sequence>(_ elements: S) -> Publishers.Sequence<Elements, Failure>
    where Elements.Element == S.Element {
        // The standard library's `elements + collection`: a new, empty collection with room for
        // both, then both appended. Combine builds it so (OpenCombine's suite records the calls
        // it makes on each collection).
        Publishers.Sequence(sequence: elements + sequence)
    }
}

extension Just {
    /// Publishes the output followed by the given elements, decided right away.
    /// - Parameter elements: Elements to publish after the output.
    /// - Returns: A sequence publisher of the output and the elements.
    @inlinable
    public func append(_ elements: Output...) -> Publishers.Sequence<[Output], Never> {
        Publishers.Sequence(sequence: [output] + elements)
    }

    /// Publishes the output followed by the elements of a sequence, decided right away.
    /// - Parameter elements: A sequence of elements to publish after the output.
    /// - Returns: A sequence publisher of the output and the elements.
    @inlinable
    public func append<S: Sequence>(_ elements: S) -> Publishers.Sequence<[Output], Never> where Output == S.Element {
        Publishers.Sequence(sequence: [output] + elements)
    }

    /// Publishes the given elements followed by the output, decided right away.
    /// - Parameter elements: Elements to publish before the output.
    /// - Returns: A sequence publisher of the elements and the output.
    @inlinable
    public func prepend(_ elements: Output...) -> Publishers.Sequence<[Output], Never> {
        Publishers.Sequence(sequence: elements + [output])
    }
}
