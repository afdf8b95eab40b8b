// swift-tools-version: 6.1
import PackageDescription

import struct Foundation.URL

// A nested package, so the library's own build never compiles the demonstration's server and
// database packages.

// SwiftPM names a path dependency after its folder, whatever the clone is called.
let tetherPackage = URL(fileURLWithPath: Context.packageDirectory).deletingLastPathComponent()
    .lastPathComponent.lowercased()

let package = Package(
    name: "TetherExamples",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "tether-demo", targets: ["TetherDemo"]),
    ],
    dependencies: [
        .package(path: ".."),
        // An HTTP server without SwiftNIO: quick to build.
        .package(url: "https://github.com/swhitty/FlyingFox", exact: "0.27.1"),
        // SQLite, for the database the loader stores into.
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
    ],
    targets: [
        .executableTarget(
            name: "TetherDemo",
            dependencies: [
                .product(name: "Tether", package: tetherPackage),
                // What Combine lacks (relays, lifetime helpers, async extras, the ledger),
                // imported on purpose where the demonstration uses it.
                .product(name: "TetherExtras", package: tetherPackage),
                .product(name: "FlyingFox", package: "FlyingFox"),
                .product(name: "FlyingSocks", package: "FlyingFox"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
    ]
)
