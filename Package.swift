// swift-tools-version: 6.2
// Three promise styles side by side: Bolts (BFTask), PromiseKit 8 and Google Promises (FBLPromise),
// one conformance suite for any Swift promise, and a bridge between them. No package dependencies.
//
// Tools version: this manifest alone would do with 6.0 (`swiftLanguageModes`), but the sources use Swift 6.2
// syntax (`nonisolated(nonsending)`, `@concurrent`), so 6.2 makes an older toolchain stop here with a clear message
// instead of failing inside the sources. It bounds the compiler, not the deployment targets below.
//
// Platforms: the floor of Swift concurrency, for every module. PromiseConformance's runner and reports use
// `Duration` and say so with `@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)`; see README.md, "Platforms".
import PackageDescription

// Trait DarwinStandIns (not a default): builds every `#if canImport(Darwin)` branch of the styles and the tour on
// Linux, against the C target DarwinStandIns, which declares what those branches use from Apple's SDK exactly as Apple
// does (`os_unfair_lock`, `pthread_key_create`'s destructor type, `dlsym`'s `RTLD_DEFAULT`) over the C library. CI
// builds and tests with it: `swift test --traits DarwinStandIns`. What it cannot show is in README.md, "Platforms".
let darwinStandIns: Set<String> = ["DarwinStandIns"]
// Trait CheckedHandlers (not a default): the styles' handler types (`PMKHandler`, `BFContinuationBlock`,
// `Promise.Then`, ...) become `@Sendable`, each promise type is `Sendable` only where its value type is, and each style
// gains `@MainActor` overloads that run on the main queue, so that a handler that would race does not compile. Every
// target reads it as `#if CheckedHandlers`. See docs/guide.md, "Swift 6 with checked handlers".
/// What a module with Apple-only branches needs to compile them against the stand-ins when the trait is on.
let withDarwinStandIns: (dependencies: [Target.Dependency], swiftSettings: [SwiftSetting]) = (
    [.target(name: "DarwinStandIns", condition: .when(traits: darwinStandIns))],
    [.define("DARWIN_STANDINS", .when(traits: darwinStandIns))]
)

let package = Package(
    name: "Promises",
    platforms: [.macOS(.v10_15), .iOS(.v13), .tvOS(.v13), .watchOS(.v6), .visionOS(.v1)],
    products: [
        .library(name: "BoltsStyle", targets: ["BoltsStyle"]),
        .library(name: "PromiseKitStyle", targets: ["PromiseKitStyle"]),
        // PromiseKit's Foundation extensions (PMKFoundation): URLSession, NotificationCenter and Process promises.
        .library(name: "PromiseKitStyleFoundation", targets: ["PromiseKitStyleFoundation"]),
        .library(name: "FBLStyle", targets: ["FBLStyle"]),
        .library(name: "PromiseConformance", targets: ["PromiseConformance"]),
        .library(name: "PromiseBridge", targets: ["PromiseBridge"]),
        // The three styles' conformance adapters, for a matrix beside other libraries (Examples/ThirdPartyConformance).
        .library(name: "PromiseStyleAdapters", targets: ["PromiseStyleAdapters"]),
        .executable(name: "promise-conformance", targets: ["promise-conformance"]),
        .executable(name: "promise-tour", targets: ["promise-tour"]),
    ],
    traits: [
        .trait(
            name: "DarwinStandIns",
            description: "Compile the Apple-only branches on Linux against stand-ins for the Apple APIs they use."
        ),
        .trait(
            name: "CheckedHandlers",
            description: """
                Make the Swift 6 compiler check every closure the styles run later or elsewhere (`@Sendable`), make \
                a promise `Sendable` only where its value is, and add `@MainActor` overloads that run on the main queue.
                """
        ),
    ],
    targets: [
        // The plumbing that is the same in the three styles (the lock, the trampoline, the raw storage), written once;
        // each style keeps its mechanism. Not a product: its symbols are `package`, inlined into the styles.
        .target(
            name: "PromisePlumbing", dependencies: withDarwinStandIns.dependencies,
            swiftSettings: withDarwinStandIns.swiftSettings
        ),
        .target(
            name: "BoltsStyle", dependencies: ["PromisePlumbing"] + withDarwinStandIns.dependencies,
            swiftSettings: withDarwinStandIns.swiftSettings
        ),
        .target(
            name: "PromiseKitStyle", dependencies: ["PromisePlumbing"] + withDarwinStandIns.dependencies,
            swiftSettings: withDarwinStandIns.swiftSettings
        ),
        .target(name: "PromiseKitStyleFoundation", dependencies: ["PromiseKitStyle"]),
        .target(
            name: "FBLStyle", dependencies: ["PromisePlumbing"] + withDarwinStandIns.dependencies,
            swiftSettings: withDarwinStandIns.swiftSettings
        ),
        .target(name: "PromiseConformance"),
        .target(name: "PromiseBridge", dependencies: ["BoltsStyle", "PromiseKitStyle", "FBLStyle", "PromisePlumbing"]),
        // The conformance adapters of the three styles: used by the runner and by ConformanceTests.
        .target(
            name: "PromiseStyleAdapters",
            dependencies: ["BoltsStyle", "PromiseKitStyle", "FBLStyle", "PromiseConformance"]
        ),
        .executableTarget(
            name: "promise-conformance",
            dependencies: ["PromiseConformance", "PromiseStyleAdapters", "PromiseKitStyle"]
        ),
        // Helpers shared by the test targets (never by the styles).
        .target(
            name: "TestSupport", dependencies: ["PromiseConformance", "PromiseKitStyle", "PromiseStyleAdapters"],
            path: "Tests/TestSupport"
        ),
        // The three mechanisms as toy models, with their conformance adapters: shown in the guide and the DocC
        // articles, run through the conformance suite by ToyModelsTests; not a product.
        .target(name: "ToyModels", dependencies: ["PromiseConformance"], path: "Tests/ToyModels"),
        // The guide's samples and the tour that runs them (docs/guide.md); not a product.
        .target(
            name: "PromiseTour",
            dependencies: ["BoltsStyle", "PromiseKitStyle", "FBLStyle"] + withDarwinStandIns.dependencies,
            swiftSettings: withDarwinStandIns.swiftSettings
        ),
        // Apple's declarations over the C library, for the trait DarwinStandIns only (see the top of this file).
        .target(name: "DarwinStandIns"),
        .testTarget(
            name: "DarwinStandInsTests", dependencies: withDarwinStandIns.dependencies,
            swiftSettings: withDarwinStandIns.swiftSettings
        ),
        .executableTarget(name: "promise-tour", dependencies: ["PromiseTour"]),
        .testTarget(name: "TestSupportTests", dependencies: ["TestSupport"]),
        .testTarget(name: "PromisePlumbingTests", dependencies: ["PromisePlumbing", "TestSupport"]),
        .testTarget(name: "BoltsStyleTests", dependencies: ["BoltsStyle", "PromisePlumbing", "TestSupport"]),
        .testTarget(
            name: "PromiseKitStyleTests",
            dependencies: ["PromiseKitStyle", "PromisePlumbing", "TestSupport", "ToyModels"]
        ),
        .testTarget(
            name: "PromiseKitStyleFoundationTests",
            dependencies: ["PromiseKitStyleFoundation", "PromiseKitStyle", "TestSupport"]
        ),
        .testTarget(name: "FBLStyleTests", dependencies: ["FBLStyle", "PromisePlumbing", "TestSupport"]),
        // Deliberately broken promises, each wrong in one way, for the conformance suite's own tests.
        .target(
            name: "FlawedPromises", dependencies: ["PromiseConformance", "TestSupport"], path: "Tests/FlawedPromises"
        ),
        // The conformance command over two flawed promises, one of which crashes the process: ConformanceTests runs it
        // to check that the command runs each clause in a child process and reports the crash.
        .executableTarget(
            name: "crash-isolation-fixture", dependencies: ["FlawedPromises", "PromiseConformance"],
            path: "Tests/CrashIsolationFixture"
        ),
        // How often the race clauses catch the flawed promises' races, over many fresh runs: a measurement run by hand
        // (Tests/RaceCalibration/calibrate.sh; the figures are in Benchmarks/NOTES.md), not a test.
        .executableTarget(
            name: "race-calibration", dependencies: ["FlawedPromises", "PromiseConformance"],
            path: "Tests/RaceCalibration", exclude: ["calibrate.sh"]
        ),
        .testTarget(
            name: "ConformanceTests",
            dependencies: [
                "PromiseConformance", "PromiseStyleAdapters", "PromiseKitStyle", "TestSupport", "FlawedPromises",
                "crash-isolation-fixture",
            ]
        ),
        .testTarget(
            name: "PromiseBridgeTests",
            dependencies: ["PromiseBridge", "BoltsStyle", "PromiseKitStyle", "FBLStyle", "TestSupport"]
        ),
        .testTarget(
            name: "ToyModelsTests",
            dependencies: ["ToyModels", "PromiseConformance", "PromiseStyleAdapters", "PromiseKitStyle", "TestSupport"]
        ),
        // The differential traces (docs/original-test-suites.md, "Differential traces"): generated programs over an
        // original's API, an interpreter per original written against its names (compiled here against our style, and
        // against the original in a throwaway recording package), and DifferentialTests, which replays every program
        // against our style and compares its trace with the one the original recorded. Not products.
        .target(name: "DifferentialCore", dependencies: ["PromiseConformance"], path: "Tests/Differential/Core"),
        .target(
            name: "PromiseKitTraces", dependencies: ["DifferentialCore", "PromiseKitStyle"],
            path: "Tests/Differential/PromiseKitTraces"
        ),
        .target(
            name: "BoltsTraces", dependencies: ["DifferentialCore", "BoltsStyle"],
            path: "Tests/Differential/BoltsTraces"
        ),
        .target(
            name: "FBLTraces", dependencies: ["DifferentialCore", "FBLStyle"],
            path: "Tests/Differential/FBLTraces"
        ),
        .executableTarget(
            name: "differential-traces",
            dependencies: ["DifferentialCore", "PromiseKitTraces", "BoltsTraces", "FBLTraces"],
            path: "Tests/Differential/Command"
        ),
        .testTarget(
            name: "DifferentialTests",
            dependencies: [
                "DifferentialCore", "PromiseKitTraces", "BoltsTraces", "FBLTraces", "PromiseKitStyle", "BoltsStyle",
                "FBLStyle", "TestSupport",
            ],
            exclude: ["Golden"]
        ),
        // The compiler's proof of the trait CheckedHandlers: snippets type-checked by `swiftc` against this build's
        // modules, under `-verify` with the trait on (docs/guide.md, "Swift 6 with checked handlers").
        .testTarget(
            name: "CheckedHandlersTests",
            dependencies: [
                "BoltsStyle", "PromiseKitStyle", "FBLStyle", "PromiseBridge", "TestSupport", "checked-handlers-fixture",
            ],
            exclude: ["Snippets"]
        ),
        // The main-actor forms at run time, in a process that serves the main queue: CheckedHandlersTests runs it.
        .executableTarget(
            name: "checked-handlers-fixture", dependencies: ["BoltsStyle", "PromiseKitStyle", "FBLStyle"],
            path: "Tests/CheckedHandlersFixture"
        ),
        .testTarget(
            name: "GuideTests",
            dependencies: ["PromiseTour", "BoltsStyle", "PromiseKitStyle", "FBLStyle", "TestSupport"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
