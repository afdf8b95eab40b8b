// swift-tools-version: 6.1
import PackageDescription

import class Foundation.FileManager
import struct Foundation.URL

// A nested package, so the root package never builds the benchmark harness or OpenCombine.
//
// Every scenario lives once, in Benchmarks/Shared and Probes/Shared, written against Combine's
// API. Each library's target holds symlinks to those same files and sets one compilation
// condition that picks the `import`, so Tether and OpenCombine run literally identical code.

// Scenarios that need a publisher Tether may not have yet compile only once its file exists
// (one public type per file, named after it, is the layout rule of Tether's sources).
let tetherSources = Context.packageDirectory + "/../Sources/TetherCore"
let tetherHas: (String) -> Bool = { FileManager.default.fileExists(atPath: tetherSources + "/" + $0) }
var scenarioConditions: [SwiftSetting] = []
if tetherHas("Publishers/Just.swift") {
    scenarioConditions.append(.define("HAS_JUST"))
}

// SwiftPM names a path dependency after its folder, whatever the clone is called.
let tetherPackage = URL(fileURLWithPath: Context.packageDirectory).deletingLastPathComponent()
    .lastPathComponent.lowercased()
let tether: Target.Dependency = .product(name: "Tether", package: tetherPackage)
let tetherExtras: Target.Dependency = .product(name: "TetherExtras", package: tetherPackage)

let benchmarkPlugin: [Target.PluginUsage] = [.plugin(name: "BenchmarkPlugin", package: "benchmark")]

let package = Package(
    name: "TetherBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", exact: "1.38.1", traits: ["MallocInterposer"]),
        .package(url: "https://github.com/OpenCombine/OpenCombine", exact: "0.14.0"),
    ],
    targets: [
        // The benchmark plugin runs every executable target whose folder sits in Benchmarks/.
        .executableTarget(
            name: "TetherBench",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                tether,
                tetherExtras,
            ],
            path: "Benchmarks/TetherBench",
            swiftSettings: [.define("TETHER")] + scenarioConditions,
            plugins: benchmarkPlugin
        ),
        .executableTarget(
            name: "OpenCombineBench",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "OpenCombine", package: "OpenCombine"),
                .product(name: "OpenCombineDispatch", package: "OpenCombine"),
                .product(name: "OpenCombineFoundation", package: "OpenCombine"),
            ],
            path: "Benchmarks/OpenCombineBench",
            swiftSettings: [.define("OPENCOMBINE")] + scenarioConditions,
            plugins: benchmarkPlugin
        ),
        // The floor: plain Swift loops calling the same closures, no reactive library.
        .executableTarget(
            name: "RawBench",
            dependencies: [.product(name: "Benchmark", package: "benchmark")],
            path: "Benchmarks/RawBench",
            plugins: benchmarkPlugin
        ),
        // Bytes per live `subject.sink`, read from glibc's allocator without the malloc
        // interposer (which adds a header to every block).
        .target(name: "CHeapInUse", path: "Probes/CHeapInUse"),
        .executableTarget(
            name: "MemoryTether",
            dependencies: [tether, "CHeapInUse"],
            path: "Probes/MemoryTether",
            swiftSettings: [.define("TETHER")]
        ),
        .executableTarget(
            name: "MemoryOpenCombine",
            dependencies: [.product(name: "OpenCombine", package: "OpenCombine"), "CHeapInUse"],
            path: "Probes/MemoryOpenCombine",
            swiftSettings: [.define("OPENCOMBINE")]
        ),
        // The profiling loop: one scenario N times, for `Probes/count.sh` to count the instructions
        // and atomic read-modify-writes an operation costs under callgrind.
        .executableTarget(
            name: "ProfileTether",
            dependencies: [tether],
            path: "Probes/ProfileTether",
            swiftSettings: [.define("TETHER")]
        ),
        // Subjects, `@Published` and a bounded pipeline under contention from several threads:
        // the longest single `send()`, total time and resident memory.
        .executableTarget(
            name: "ContentionTether",
            dependencies: [tether],
            path: "Probes/ContentionTether",
            swiftSettings: [.define("TETHER")]
        ),
        .executableTarget(
            name: "ContentionOpenCombine",
            dependencies: [
                .product(name: "OpenCombine", package: "OpenCombine"),
                .product(name: "OpenCombineDispatch", package: "OpenCombine"),
            ],
            path: "Probes/ContentionOpenCombine",
            swiftSettings: [.define("OPENCOMBINE")]
        ),
    ]
)
