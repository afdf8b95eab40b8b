/// A type that publishes a property marked with an attribute.
///
/// Publishing a property with the `@Published` attribute creates a publisher of this type. You
/// access the publisher with the `$` operator:
///
/// ```swift
/// class Weather {
///     @Published var temperature: Double
///     init(temperature: Double) {
///         self.temperature = temperature
///     }
/// }
///
/// let weather = Weather(temperature: 20)
/// cancellable = weather.$temperature
///     .sink() {
///         print ("Temperature now: \($0)")
///     }
/// weather.temperature = 25
///
/// // Prints:
/// // Temperature now: 20.0
/// // Temperature now: 25.0
/// ```
///
/// When the property changes, publishing occurs in the property's `willSet` block, meaning
/// subscribers receive the new value before it's actually set on the property: a subscriber
/// that reads `weather.temperature` while receiving `25` still reads `20`. A subscriber that
/// subscribes to `$temperature` meanwhile (from inside that delivery, say) starts from `25`,
/// the value going out. When the enclosing class is an ``ObservableObject`` using the default
/// `objectWillChange`, that publisher fires first, before any subscriber of the property.
///
/// The `@Published` attribute is class constrained: use it with properties of classes, not
/// with structures. The property stores its value inline; a subject to publish it is created
/// only once someone asks for the `$` publisher.
@propertyWrapper
public struct Published<Value> {
    @usableFromInline
    internal enum Storage {
        /// Nobody has asked for the `$` publisher yet: the value is all there is.
        case value(Value)
        /// The subject owns the value.
        case subject(PublishedSubject<Value>)
    }

    @usableFromInline
    internal var storage: Storage

    /// The owner's `objectWillChange`, cached by the setter once it is known to exist.
    @usableFromInline
    internal var changePublisher: ObservableObjectPublisher?

    /// Creates the published instance with an initial value.
    ///
    /// Don't use this initializer directly. Instead, create a property with the `@Published`
    /// attribute, as in `@Published var lastUpdated: Date = Date()`.
    /// - Parameter initialValue: The publisher's initial value.
    @inlinable
    public init(initialValue: Value) {
        storage = .value(initialValue)
    }

    /// Creates the published instance with an initial wrapped value.
    ///
    /// Don't use this initializer directly. Instead, create a property with the `@Published`
    /// attribute, as in `@Published var lastUpdated: Date = Date()`.
    /// - Parameter wrappedValue: The publisher's initial value.
    @inlinable
    public init(wrappedValue: Value) {
        storage = .value(wrappedValue)
    }

    /// Unavailable: `@Published` works through its enclosing class instance.
    @available(*, unavailable, message: "@Published is only available on properties of classes")
    public var wrappedValue: Value {
        get { preconditionFailure("@Published is only available on properties of classes") }
        set { preconditionFailure("@Published is only available on properties of classes") }
    }

    /// The property for which this instance exposes a publisher.
    ///
    /// The `$` operator on a class property reaches this publisher through
    /// `subscript(_enclosingInstance:projected:storage:)`, which also ties it to the owner's
    /// `objectWillChange`; this accessor serves direct uses of the storage. Setting it, as
    /// ``Publisher/assign(to:)`` does through `&$property`, keeps the property's own publisher
    /// (creating it if needed) and ignores the one assigned, as Combine does: a property never
    /// takes over another's publisher or value.
    public var projectedValue: Publisher {
        mutating get { Publisher(subject(owner: nil as AnyObject?)) }
        set { _ = subject(owner: nil as AnyObject?) }
    }

    /// The subject publishing this property, created (holding the current value) on first use.
    @inlinable
    internal mutating func subject<Owner: AnyObject>(owner: Owner?) -> PublishedSubject<Value> {
        switch storage {
        case .subject(let subject):
            return subject
        case .value(let value):
            let subject = PublishedSubject(value, owner: owner, changePublisher: changePublisher)
            storage = .subject(subject)
            return subject
        }
    }

    /// The value of the property, wherever it is kept.
    @inlinable
    internal var currentValue: Value {
        switch storage {
        case .value(let value): return value
        case .subject(let subject): return subject.value
        }
    }

    /// The subject, if one exists.
    @inlinable
    internal var existingSubject: PublishedSubject<Value>? {
        if case .subject(let subject) = storage { return subject }
        return nil
    }

    /// Reads and writes a `@Published` property of a class instance.
    ///
    /// Setting publishes in `willSet` order: the object's default `objectWillChange` (when it
    /// has one and it has been asked for), then the `$` publisher's subscribers, then the value
    /// is stored.
    /// - Parameters:
    ///   - object: The instance whose property is accessed.
    ///   - wrappedKeyPath: The key path of the property.
    ///   - storageKeyPath: The key path of the property's `Published` storage.
    @inlinable
    public static subscript<EnclosingSelf: AnyObject>(
        _enclosingInstance object: EnclosingSelf,
        wrapped wrappedKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Value>,
        storage storageKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Published<Value>>
    ) -> Value {
        // Always inlined: in the property's accessor the key paths are literals, which the
        // optimiser turns into direct field accesses instead of runtime key path projections.
        @inline(__always) get {
            object[keyPath: storageKeyPath].currentValue
        }
        @inline(__always) set {
            if let subject = object[keyPath: storageKeyPath].existingSubject {
                subject.send(newValue)
                return
            }
            // Unretained: the registry keeps an object's `objectWillChange` for as long as the
            // object lives (see `PublishedSubject.resolveChangePublisher()`).
            var changePublisher: Unmanaged<ObservableObjectPublisher>?
            if let known = object[keyPath: storageKeyPath].changePublisher {
                changePublisher = Unmanaged.passUnretained(known)
            } else if let found = ObservableObjectRegistry.existingPublisher(for: object) {
                object[keyPath: storageKeyPath].changePublisher = found
                changePublisher = Unmanaged.passUnretained(found)
            }
            // Outside any access to the storage: the subscribers may read the property.
            changePublisher?._withUnsafeGuaranteedRef { $0.send() }
            object[keyPath: storageKeyPath].storage = .value(newValue)
        }
    }

    /// Reaches the `$` publisher of a `@Published` property of a class instance.
    ///
    /// The first access creates the property's subject and records the instance as its owner,
    /// so that values assigned through ``Publisher/assign(to:)`` fire the owner's
    /// `objectWillChange` too.
    /// - Parameters:
    ///   - object: The instance whose property is accessed.
    ///   - projectedKeyPath: The key path of the `$` property.
    ///   - storageKeyPath: The key path of the property's `Published` storage.
    @inlinable
    public static subscript<EnclosingSelf: AnyObject>(
        _enclosingInstance object: EnclosingSelf,
        projected projectedKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Publisher>,
        storage storageKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Published<Value>>
    ) -> Publisher {
        @inline(__always) get {
            Publisher(object[keyPath: storageKeyPath].subject(owner: object))
        }
        // As the `projectedValue` setter: the property keeps its own publisher.
        @inline(__always) set {
            _ = object[keyPath: storageKeyPath].subject(owner: object)
        }
    }
}

extension Published {
    /// A publisher for properties marked with the `@Published` attribute.
    ///
    /// It publishes the property's current value to each new subscriber on its first demand,
    /// then every new value, in `willSet` order. A subscriber without demand when a value is
    /// set receives the latest value once it asks. It never fails or finishes. Values are
    /// delivered on the thread that sets the property (or that sends to ``Publisher/assign(to:)``).
    public struct Publisher: TetherCore.Publisher {
        /// The kind of values published by this publisher: the property's.
        public typealias Output = Value

        /// The kind of errors this publisher might publish: it cannot fail.
        public typealias Failure = Never

        @usableFromInline
        internal let subject: PublishedSubject<Value>

        @inlinable
        internal init(_ subject: PublishedSubject<Value>) {
            self.subject = subject
        }

        /// Attaches `subscriber`; it receives the current value on its first demand.
        /// - Parameter subscriber: The subscriber to attach.
        @inlinable
        public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Value, S.Failure == Never {
            subject.receive(subscriber: subscriber)
        }
    }
}

extension Publisher where Failure == Never {
    /// Republishes elements received from a publisher, by assigning them to a property marked
    /// as a publisher.
    ///
    /// Use this operator to receive elements from a publisher and republish them through a
    /// property marked with the `@Published` attribute: `publisher.assign(to: &$property)`.
    /// The operator manages the life cycle of the subscription: the property holds it, and
    /// cancels it when the property's storage is deinitialized, so no `AnyCancellable` is
    /// returned. Nothing here holds the property's owner, so a class may assign a pipeline to
    /// its own property without forming a reference cycle.
    ///
    /// The subscriber requests `.unlimited` at once. Each value is set as if assigned to the
    /// property (firing the owner's `objectWillChange`), on the thread that delivers it.
    /// - Parameter published: A property marked with the `@Published` attribute, which receives
    ///   and republishes all elements received from the upstream publisher.
    @inlinable
    public func assign(to published: inout Published<Output>.Publisher) {
        subscribe(PublishedSubscriber(published.subject))
    }
}

extension Published.Publisher: SubscriberErasing {}
