import Tether
import TetherTesting

/// An object whose `@Published` property the `Published.Publisher` row sets.
final class PublishedHolder: ObservableObject {
    @Published var value = 0
}

/// A `Published.Publisher` whose property starts at element 0 (which each new subscriber
/// gets first, on demand) and is set to each later element index.
func publishedUnderTest() -> PublisherUnderTest<Published<Int>.Publisher> {
    let holder = PublishedHolder()
    return .hot(holder.$value, replays: 1, send: { holder.value = $0 }, finish: {})
}

/// An `ObservableObjectPublisher`, sent one signal per element.
func objectWillChangeUnderTest() -> PublisherUnderTest<ObservableObjectPublisher> {
    let publisher = ObservableObjectPublisher()
    return .hot(publisher, send: { _ in publisher.send() }, finish: {})
}
