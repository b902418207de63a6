// swift-tools-version: 6.2
// The conformance suite over real promise libraries: swift-nio's EventLoopFuture and OpenCombine's Future, beside the
// package's three styles. A separate package, so that the root package keeps no dependencies.
import PackageDescription

let package = Package(
    name: "ThirdPartyConformance",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "Promises", path: "../.."),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/OpenCombine/OpenCombine", from: "0.14.0"),
    ],
    targets: [
        .target(
            name: "ThirdPartyAdapters",
            dependencies: [
                .product(name: "PromiseConformance", package: "Promises"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "OpenCombine", package: "OpenCombine"),
            ]
        ),
        .executableTarget(
            name: "third-party-conformance",
            dependencies: [
                "ThirdPartyAdapters",
                .product(name: "PromiseConformance", package: "Promises"),
                .product(name: "PromiseStyleAdapters", package: "Promises"),
                .product(name: "PromiseKitStyle", package: "Promises"),
            ]
        ),
        .testTarget(
            name: "ThirdPartyAdaptersTests",
            dependencies: ["ThirdPartyAdapters", .product(name: "PromiseConformance", package: "Promises")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
