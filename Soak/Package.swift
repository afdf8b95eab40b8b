// swift-tools-version: 6.1
import PackageDescription

import struct Foundation.URL

// A nested package, so the library's own build never builds the soak test. Run it optimised:
// `swift run -c release --package-path Soak tether-soak --seconds 30`.

// SwiftPM names a path dependency after its folder, whatever the clone is called.
let tetherPackage = URL(fileURLWithPath: Context.packageDirectory).deletingLastPathComponent()
    .lastPathComponent.lowercased()

let package = Package(
    name: "TetherSoak",
    platforms: [.macOS(.v15)],
    dependencies: [.package(path: "..")],
    targets: [
        // The allocator's own count of live heap bytes, which Swift's Glibc module does not export.
        .target(name: "HeapInUse"),
        .executableTarget(
            name: "tether-soak",
            dependencies: ["HeapInUse", .product(name: "Tether", package: tetherPackage)],
            path: "Sources/TetherSoak"
        ),
    ]
)
