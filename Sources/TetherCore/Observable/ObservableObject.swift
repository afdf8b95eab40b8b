/// A type of object with a publisher that emits before the object has changed.
///
/// By default an `ObservableObject` synthesizes an `objectWillChange` publisher that
/// emits before any of its `@Published` properties changes:
///
/// ```swift
/// class Contact: ObservableObject {
///     @Published var name: String
///     @Published var age: Int
///
///     init(name: String, age: Int) {
///         self.name = name
///         self.age = age
///     }
///
///     func haveBirthday() -> Int {
///         age += 1
///         return age
///     }
/// }
///
/// let john = Contact(name: "John Appleseed", age: 24)
/// cancellable = john.objectWillChange
///     .sink { _ in
///         print("\(john.age) will change")
///     }
/// print(john.haveBirthday())
/// // Prints "24 will change"
/// // Prints "25"
/// ```
///
/// `@Published` properties fire only the default `objectWillChange` below (the one used when
/// `ObjectWillChangePublisher` is ``ObservableObjectPublisher`` and the class declares no
/// `objectWillChange` of its own). A class that provides its own publisher sends it itself.
public protocol ObservableObject: AnyObject {
    /// The type of publisher that emits before the object has changed.
    associatedtype ObjectWillChangePublisher: Publisher = ObservableObjectPublisher
    where ObjectWillChangePublisher.Failure == Never

    /// A publisher that emits before the object has changed.
    var objectWillChange: ObjectWillChangePublisher { get }
}

extension ObservableObject where ObjectWillChangePublisher == ObservableObjectPublisher {
    /// A publisher that emits before any `@Published` property of the object changes.
    ///
    /// Every access returns the same instance for the same object. The first access creates
    /// it; later accesses are a constant-time table lookup that allocates nothing (no
    /// reflection). Values that reach a `@Published` property through
    /// ``Publisher/assign(to:)`` fire it too.
    public var objectWillChange: ObservableObjectPublisher {
        ObservableObjectRegistry.publisher(for: self)
    }
}
