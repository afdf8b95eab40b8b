// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "Tether",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        // Apple's Combine API, exactly: `import Tether` declares what Combine declares, nothing more.
        .library(name: "Tether", targets: ["Tether"]),
        // What Combine lacks: extra operators and subjects, lifetime helpers, async extras, the
        // Observation bridge and the subscription ledger. Imported on purpose, beside Tether.
        .library(name: "TetherExtras", targets: ["TetherExtras"]),
        // Apple's Combine where it exists, Tether elsewhere, under one import.
        .library(name: "TetherShim", targets: ["TetherShim"]),
        .library(name: "TetherTesting", targets: ["TetherTesting"]),
    ],
    dependencies: [
        // `swift package generate-documentation`: the DocC catalogs (see .ci/docs).
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0")
    ],
    targets: [
        // The Combine-compatible core: no Foundation, locks from Synchronization.
        .target(name: "TetherCore"),
        // Foundation and Dispatch integration: schedulers, Timer, NotificationCenter, URLSession,
        // coders.
        .target(name: "TetherFoundation", dependencies: ["TetherCore"]),
        // What users import: re-exports the core and the Foundation integration.
        .target(name: "Tether", dependencies: ["TetherCore", "TetherFoundation"]),
        // Everything public that Apple's Combine does not have. It extends Tether's protocols
        // (not Apple's Combine, on any platform) and reaches the core's `package` internals.
        .target(name: "TetherExtras", dependencies: ["TetherCore", "TetherFoundation"]),
        // `import Combine` where the platform has it, `import Tether` elsewhere (like
        // OpenCombineShim).
        .target(
            name: "TetherShim",
            dependencies: [
                .target(
                    name: "Tether",
                    condition: .when(platforms: [.linux, .windows, .android, .wasi, .openbsd]))
            ]),
        // Test support: recording subscribers and publishers, conformance kit, leak checks.
        .target(name: "TetherTesting", dependencies: ["Tether", "TetherExtras"]),
        // Helpers only Tether's own tests use (a loopback HTTP server): not a product.
        .target(name: "TetherTestSupport", path: "Tests/TetherTestSupport"),
        .testTarget(
            name: "TetherTests", dependencies: ["Tether", "TetherExtras", "TetherTesting", "TetherTestSupport"]),
        // Publishers written as users write them, behind every operator family; CI also runs
        // this target optimised (see Docs/StackPromotionReproducer.md).
        .testTarget(name: "TetherUserCodeTests", dependencies: ["Tether"]),
        // Compiled with `import Tether` only: code written for Combine declares names of its own
        // (every name TetherExtras declares, and overloads of Combine's entry points) and must
        // compile and resolve as it would against Combine.
        .testTarget(name: "TetherSurfaceTests", dependencies: ["Tether"]),
        // The seed articles' samples, compiled as written: they predate strict concurrency.
        .testTarget(
            name: "TetherSeedTests",
            dependencies: ["Tether", "TetherExtras", "TetherTesting", "TetherTestSupport"],
            swiftSettings: [.swiftLanguageMode(.v5)]),
    ]
)
