// swift-tools-version: 6.1
// The benchmarks of the three promise styles against plain GCD, Swift concurrency and the cost floor.
// A separate package so that the root package keeps no dependencies. Run `bash Benchmarks/compare` (see README.md).
import PackageDescription

let package = Package(
    name: "PromiseBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
        .package(name: "Promises", path: ".."),
    ],
    targets: [
        .executableTarget(
            name: "PromiseBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "BoltsStyle", package: "Promises"),
                .product(name: "PromiseKitStyle", package: "Promises"),
                .product(name: "FBLStyle", package: "Promises"),
                .product(name: "PromiseConformance", package: "Promises"),
                .product(name: "PromiseStyleAdapters", package: "Promises"),
            ],
            path: "PromiseBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        )
    ],
    swiftLanguageModes: [.v6]
)
