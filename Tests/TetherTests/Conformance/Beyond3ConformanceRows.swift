import Tether
import TetherTesting

extension ConformanceTableTests {
    // beyond3: flatMapFirst, amb, collection combineLatest/zip, delayed retry, switchIfEmpty,
    // take(until:), the Observation bridge.
    static var beyond3Rows: [ConformanceRow] {
        [
            .cold(
                "Publishers.FlatMapFirst", elements: 5, options: .tether(),
                make: { Just(5).setFailureType(to: TestError.self).flatMapFirst { recorded($0) } },
                failing: { Just(2).setFailureType(to: TestError.self).flatMapFirst { recorded($0, thenFails: true) } }),
            .driven("Publishers.FlatMapFirst", "subject", elements: 5, options: .tether(multicast: true)) {
                wrapped(passthroughUnderTest()) { $0.flatMapFirst { Just($0).setFailureType(to: TestError.self) } }
            },
        ]
    }
}
