// swift-tools-version:6.0
import PackageDescription

// Benchmarks live in their own package so that users of AppClipCodeKit never
// resolve benchmark dependencies. Run from this folder:
//   swift run -c release CodecBenchmarks      (µs per call, warm)
//   swift run -c release TableLoad            (table build time and memory, cold process)
//   ../.build/release/appclipcode bench ...   (frames: see the README)
let package = Package(
    name: "AppClipCodeBenchmarks",
    dependencies: [
        .package(path: ".."),
        .package(url: "https://github.com/google/swift-benchmark", from: "0.1.2"),
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
            name: "TableLoad",
            dependencies: [.product(name: "CAppClipCore", package: "main")]),
    ]
)
