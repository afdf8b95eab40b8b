// swift-tools-version: 6.1
import PackageDescription

import struct Foundation.URL

// The Combine-compatibility harness: OpenCombine 0.14.0's test suite, which its authors run
// against Apple's Combine, compiled unmodified against Tether through a module named `Combine`.
// `bash Compatibility/run` fetches the suite into `.build-compat/` and fills `.build-compat/tests`
// with links to the files that compile; this package is never part of the library's own build.

// SwiftPM names a path dependency after its folder, whatever the clone is called.
let tetherPackage = URL(fileURLWithPath: Context.packageDirectory).deletingLastPathComponent()
    .lastPathComponent.lowercased()

let package = Package(
    name: "TetherCompatibility",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    dependencies: [
        .package(path: ".."),
    ],
    targets: [
        // What the suite imports when built with OPENCOMBINE_COMPATIBILITY_TEST: Tether, by
        // Combine's module name.
        .target(
            name: "Combine",
            dependencies: [.product(name: "Tether", package: tetherPackage)]
        ),
        // The suite's module name is part of its behaviour: its crash assertions re-run the test
        // binary with the filter `OpenCombineTests.<Class>/<test>`.
        .testTarget(
            name: "OpenCombineTests",
            dependencies: ["Combine"],
            path: ".build-compat/tests",
            swiftSettings: [
                .swiftLanguageMode(.v5),
                .define("OPENCOMBINE_COMPATIBILITY_TEST"),
            ]
        ),
    ]
)
