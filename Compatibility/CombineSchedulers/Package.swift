// swift-tools-version: 6.1
import PackageDescription

import struct Foundation.URL

// Code written elsewhere, against Apple's Combine: pointfreeco/combine-schedulers 1.2.2, its library
// and its tests (which its CI runs on Apple's Combine), compiled unmodified against Tether through a
// module named `Combine`. `bash Compatibility/CombineSchedulers/run` fetches them into
// `.build-suite/`; nothing of them is committed, and this package is never part of the library's
// own build.

// SwiftPM names a path dependency after its folder, whatever the clone is called.
let tetherPackage = URL(fileURLWithPath: Context.packageDirectory).deletingLastPathComponent()
    .deletingLastPathComponent().lastPathComponent.lowercased()

let package = Package(
    name: "TetherCombineSchedulers",
    dependencies: [
        .package(path: "../.."),
        .package(url: "https://github.com/pointfreeco/swift-concurrency-extras", from: "1.4.3"),
        .package(url: "https://github.com/pointfreeco/xctest-dynamic-overlay", from: "1.13.1"),
    ],
    targets: [
        // What the library and its tests import: Tether, by Combine's module name (their sources
        // are written `#if canImport(Combine)`).
        .target(
            name: "Combine",
            dependencies: [.product(name: "Tether", package: tetherPackage)],
            swiftSettings: [.swiftLanguageMode(.v5)]
        ),
        .target(
            name: "CombineSchedulers",
            dependencies: [
                "Combine",
                .product(name: "ConcurrencyExtras", package: "swift-concurrency-extras"),
                .product(name: "IssueReporting", package: "xctest-dynamic-overlay"),
            ],
            path: ".build-suite/clone/Sources/CombineSchedulers",
            swiftSettings: [.swiftLanguageMode(.v5)]
        ),
        .testTarget(
            name: "CombineSchedulersTests",
            dependencies: [
                "CombineSchedulers", "Combine",
                .product(name: "ConcurrencyExtras", package: "swift-concurrency-extras"),
            ],
            path: ".build-suite/tests",
            swiftSettings: [.swiftLanguageMode(.v5)]
        ),
    ]
)
