// swift-tools-version: 6.1
import PackageDescription

// The service's package exports no library, only the `urlsessiond` executable, so this package compiles the
// service's own `Sources/JSONCodec`, `Sources/HTTPCookies` and `Sources/TransferModels` (through symlinks) with the same settings,
// and the benchmark calls it across a module boundary, as ControlPlane and TransferEngine do.
let swiftSettings: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "json-benchmark",
    platforms: [.macOS(.v15)],
    targets: [
        .target(name: "JSONCodec", swiftSettings: swiftSettings),
        .target(name: "HTTPCookies", swiftSettings: swiftSettings),
        .target(name: "TransferModels", dependencies: ["JSONCodec", "HTTPCookies"], swiftSettings: swiftSettings),
        .executableTarget(
            name: "JSONBenchmark", dependencies: ["JSONCodec", "TransferModels"], swiftSettings: swiftSettings),
    ]
)
