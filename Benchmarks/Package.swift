// swift-tools-version: 6.1
// The benchmarks of the three promise styles against plain GCD, Swift concurrency and the cost floor.
// A separate package so that the root package keeps no dependencies. Run `bash Benchmarks/compare` (see README.md).
import PackageDescription

/// The three styles, which every target here measures.
let styles: [Target.Dependency] = [
    .product(name: "BoltsStyle", package: "Promises"),
    .product(name: "PromiseKitStyle", package: "Promises"),
    .product(name: "FBLStyle", package: "Promises"),
]

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
            dependencies: styles + [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "PromiseConformance", package: "Promises"),
                .product(name: "PromiseStyleAdapters", package: "Promises"),
                "Operations",
            ],
            path: "PromiseBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        // B8, scaling with the thread count: a plain executable, so that a static build runs where Swift is not.
        .executableTarget(
            name: "scaling",
            dependencies: styles + ["Operations"],
            path: "Scaling"
        ),
        // What B4, B5, B6 and B8 share: B4's batch (FanOut) and the cost floor.
        .target(
            name: "Operations",
            dependencies: styles,
            path: "Operations"
        ),
    ],
    swiftLanguageModes: [.v6]
)
