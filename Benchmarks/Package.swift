// swift-tools-version:6.0
import PackageDescription

// Benchmarks live in their own package so that users of AppClipCodeKit never
// resolve benchmark dependencies. Run from this folder:
//   swift run -c release CodecBenchmarks      (µs per call, warm)
//   swift run -c release TableLoad            (table build time and memory, cold process)
//   swift run -c release FrameLatency FOLDER...   (frames per size, with and without a code,
//                                             tracked; memory growth once warm)
//   ../.build/release/appclipcode bench ...   (frame sets: percentiles, threads, stages)
let package = Package(
    name: "AppClipCodeBenchmarks",
    dependencies: [
        .package(path: ".."),
        .package(url: "https://github.com/google/swift-benchmark", from: "0.1.2"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    ],
    targets: [
        .executableTarget(
            name: "CodecBenchmarks",
            dependencies: [
                .product(name: "AppClipCodeKit", package: "main"),
                .product(name: "CAppClipCore", package: "main"),
                .product(name: "Benchmark", package: "swift-benchmark"),
            ]),
        .executableTarget(
            name: "FrameLatency",
            dependencies: [
                .product(name: "AppClipCodeKit", package: "main"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                "BenchmarkSupport",
            ]),
        .executableTarget(
            name: "TableLoad",
            dependencies: [.product(name: "CAppClipCore", package: "main"), "BenchmarkSupport"]),
        // What several benchmarks measure alike (resident memory).
        .target(name: "BenchmarkSupport"),
    ]
)
