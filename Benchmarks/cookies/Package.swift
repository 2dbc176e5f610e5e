// swift-tools-version: 6.1
import PackageDescription

// The cost of cookie selection: the service's `Sources/HTTPCookies` (through the symlink) compiled with
// the service's settings, called across a module boundary as the task layer calls it.
let swiftSettings: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "cookie-benchmark",
    platforms: [.macOS(.v15)],
    targets: [
        .target(name: "HTTPCookies", swiftSettings: swiftSettings),
        .executableTarget(name: "CookieBenchmark", dependencies: ["HTTPCookies"], swiftSettings: swiftSettings),
    ]
)
