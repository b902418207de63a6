// swift-tools-version: 6.2
// Code written for PromiseKit 8 or Google Promises, unchanged down to its imports: SwiftPM's `moduleAliases` builds
// PromiseKitStyle as the module `PromiseKit` and FBLStyle as the module `Promises`. A separate package, depending on
// this repository as a project would; README.md, "Keeping the import", explains each line.
import PackageDescription

// SwiftPM applies `moduleAliases` only when `package:` is the dependency's identity, the last component of its URL
// or path, and ignores them when it is a `name:` given to the dependency. Here the path is the repository's own
// directory, so the identity is that directory's name, whatever the clone is called.
let repository = String(Context.packageDirectory.split(separator: "/").dropLast(2).last ?? "")

let package = Package(
    name: "ModuleAliases",
    platforms: [.macOS(.v15)],
    dependencies: [.package(path: "../..")],
    targets: [
        // Empty modules named like the styles' modules. SwiftPM 6.3.1 lets a target name an aliased module by its new
        // name when a module of its package that it depends on has the original name. Without one, `swift build`
        // compiles the target that declares the alias with `-module-alias PromiseKitStyle=PromiseKit`, and
        // `import PromiseKit` fails: "cannot refer to module as 'PromiseKit' because it has been aliased"
        // (swiftlang/swift-package-manager#10417).
        .target(name: "PromiseKitStyle", path: "Sources/Placeholders/PromiseKitStyle"),
        .target(name: "FBLStyle", path: "Sources/Placeholders/FBLStyle"),
        .executableTarget(
            name: "promisekit-import",
            dependencies: [
                .target(name: "PromiseKitStyle"),
                .product(
                    name: "PromiseKitStyle", package: repository, moduleAliases: ["PromiseKitStyle": "PromiseKit"]
                ),
            ]
        ),
        .executableTarget(
            name: "promises-import",
            dependencies: [
                .target(name: "FBLStyle"),
                .product(name: "FBLStyle", package: repository, moduleAliases: ["FBLStyle": "Promises"]),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
