// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "Tether",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .library(name: "Tether", targets: ["Tether"]),
        .library(name: "TetherTesting", targets: ["TetherTesting"]),
    ],
    dependencies: [
        // `swift package generate-documentation`: the DocC catalogs (see .ci/docs).
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // The Combine-compatible core: no Foundation, locks from Synchronization.
        .target(name: "TetherCore"),
        // Foundation and Dispatch integration: schedulers, Timer, NotificationCenter, URLSession,
        // coders.
        .target(name: "TetherFoundation", dependencies: ["TetherCore"]),
        // What users import: re-exports the core and the Foundation integration.
        .target(name: "Tether", dependencies: ["TetherCore", "TetherFoundation"]),
        // Test support: recording subscribers and publishers, conformance kit, leak checks.
        .target(name: "TetherTesting", dependencies: ["Tether"]),
        .testTarget(name: "TetherTests", dependencies: ["Tether", "TetherTesting"]),
        // Publishers written as users write them, behind every operator family; CI also runs
        // this target optimised (see Docs/StackPromotionReproducer.md).
        .testTarget(name: "TetherUserCodeTests", dependencies: ["Tether"]),
        // The seed articles' samples, compiled as written: they predate strict concurrency.
        .testTarget(
            name: "TetherSeedTests", dependencies: ["Tether", "TetherTesting"],
            swiftSettings: [.swiftLanguageMode(.v5)]),
    ]
)
