// swift-tools-version: 6.1
import PackageDescription

let swiftSettings: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "urlsessiond",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "urlsessiond", targets: ["urlsessiond"]),
        // URLSession's API for Swift programs, carried out by a running urlsessiond.
        .library(name: "URLSessionRemote", targets: ["URLSessionRemote"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        // postgres-nio's own; named because TransferStore imports NIOCore and NIOPosix itself.
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.3"),
    ],
    targets: [
        .systemLibrary(
            name: "CCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        .systemLibrary(
            name: "CMicroHTTPD", pkgConfig: "libmicrohttpd", providers: [.apt(["libmicrohttpd-dev"])]),
        .systemLibrary(
            name: "COpenSSL", pkgConfig: "openssl", providers: [.apt(["libssl-dev"])]),
        .systemLibrary(name: "CLinux"),
        // CURLcode → NSURLErrorDomain code: the service's transfers and the client's calls (no dependency).
        .target(
            name: "CurlErrorCodes",
            swiftSettings: swiftSettings),
        .target(
            name: "JSONCodec",
            swiftSettings: swiftSettings),
        .target(
            name: "HTTPCookies",
            swiftSettings: swiftSettings),
        .target(
            name: "HTTPCaching",
            swiftSettings: swiftSettings),
        .target(
            name: "WebSockets",
            dependencies: [.product(name: "Crypto", package: "swift-crypto")],
            swiftSettings: swiftSettings),
        .target(
            name: "Certificates",
            dependencies: ["COpenSSL"],
            swiftSettings: swiftSettings),
        .target(
            name: "NetworkPaths",
            dependencies: ["TransferModels", .product(name: "Logging", package: "swift-log")],
            swiftSettings: swiftSettings),
        .target(
            name: "TransferModels",
            dependencies: ["JSONCodec", "HTTPCookies", "Metalink", "CLinux"],
            swiftSettings: swiftSettings),
        // Metalink 4 documents (RFC 5854) read for a download's mirrors and hashes; FoundationXML's parser.
        .target(
            name: "Metalink",
            swiftSettings: swiftSettings),
        .target(
            name: "Curl",
            dependencies: [
                "CCurl", "TransferModels",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings),
        .target(
            name: "ObjectStorage",
            dependencies: ["Curl", "TransferModels"],
            swiftSettings: swiftSettings),
        .target(
            name: "TransferStore",
            dependencies: [
                "TransferModels", "JSONCodec",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),  // binding and reading values directly
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: swiftSettings),
        .target(
            name: "TransferEngine",
            dependencies: [
                "Curl", "TransferModels", "HTTPCaching", "Certificates", "CLinux", "WebSockets", "Metalink", "CurlErrorCodes",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Crypto", package: "swift-crypto"),  // piece hashes of mirrored downloads
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: swiftSettings),
        .target(
            name: "SessionTasks",
            dependencies: [
                "TransferEngine", "TransferModels", "TransferStore", "HTTPCookies", "HTTPCaching", "Certificates", "NetworkPaths",
                "ObjectStorage", "JSONCodec", "Metalink",
                "Curl",  // the egress policy, judging a delegate's address when it is given
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: swiftSettings),
        .target(
            name: "EventDelivery",
            dependencies: [
                "Curl", "TransferModels", "TransferStore", "HTTPCaching", "JSONCodec",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: swiftSettings),
        // The operator console: plain HTML, CSS and JavaScript compiled into the binary, no build step.
        .target(
            name: "Console",
            resources: ConsoleAssets.files.map { .embedInCode("Assets/\($0)") },
            swiftSettings: swiftSettings),
        .target(
            name: "ControlPlane",
            dependencies: [
                // The application layer (`SessionTasks`) is its only door: neither the store nor the engine.
                "CMicroHTTPD", "TransferModels", "SessionTasks", "NetworkPaths", "Console", "JSONCodec", "Metalink",
                "WebSockets",  // the relay: the server's handshake and frames
                "ObjectStorage",  // `/file` read from the object store
                .product(name: "Logging", package: "swift-log"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: swiftSettings),
        .target(
            name: "URLSessionService",
            dependencies: [
                "ControlPlane", "TransferStore", "TransferModels", "TransferEngine", "SessionTasks", "EventDelivery", "Curl",
                "NetworkPaths", "ObjectStorage", "JSONCodec",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            resources: [.copy("openapi.yaml")],
            swiftSettings: swiftSettings),
        .executableTarget(
            name: "urlsessiond",
            dependencies: [
                "URLSessionService", "CommandLineClient",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: swiftSettings),
        // The command line's client side (`urlsessiond get`, `tasks`, `watch`): progress, exit statuses.
        .target(
            name: "CommandLineClient",
            dependencies: ["URLSessionRemote", .product(name: "ArgumentParser", package: "swift-argument-parser")],
            swiftSettings: swiftSettings),
        // No dependency beyond the toolchain's Foundation and libcurl (its HTTP): see HTTPTransport.
        .target(
            name: "URLSessionRemote",
            dependencies: ["CCurl", "CurlErrorCodes"],
            swiftSettings: swiftSettings),
        // A client process URLSessionRemoteTests kill -9 and start again (background re-attach).
        .executableTarget(
            name: "urlsessionremote-probe",
            dependencies: ["URLSessionRemote"],
            swiftSettings: swiftSettings),
        .target(
            name: "TestSupport",
            dependencies: [
                "Curl",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "CommandLineClientTests",
            dependencies: ["CommandLineClient"],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "WebSocketsTests",
            dependencies: ["WebSockets", "TestSupport"],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "JSONCodecTests",
            dependencies: ["JSONCodec"],
            resources: [.copy("JSONTestSuite")],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "TransferModelsTests",
            dependencies: ["TransferModels", "JSONCodec"],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "MetalinkTests",
            dependencies: ["Metalink"],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "HTTPCookiesTests",
            dependencies: ["HTTPCookies"],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "HTTPCachingTests",
            dependencies: ["HTTPCaching"],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "CertificatesTests",
            dependencies: ["Certificates", "COpenSSL"],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "NetworkPathsTests",
            dependencies: ["NetworkPaths", .product(name: "Logging", package: "swift-log")],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "ObjectStorageTests",
            dependencies: ["ObjectStorage", "TestSupport"],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "CurlTests",
            dependencies: ["Curl"],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "SessionTasksTests",
            dependencies: [
                "SessionTasks", "TransferEngine", "TransferModels", "TransferStore", "TestSupport", "JSONCodec", "NetworkPaths",
                "HTTPCookies", "Curl",  // the egress policy that lets the runner's tests reach the fixture origin on loopback
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "TransferStoreTests",
            dependencies: [
                "TransferStore", "TransferModels", "JSONCodec", "TestSupport",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "TransferEngineTests",
            dependencies: [
                "TransferEngine", "TransferModels", "Curl", "TestSupport", "WebSockets",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "EventDeliveryTests",
            dependencies: [
                "EventDelivery", "TransferStore", "TransferModels", "JSONCodec", "Curl", "TestSupport",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "ControlPlaneTests",
            dependencies: [
                "ControlPlane", "TransferStore", "TransferModels", "SessionTasks", "TransferEngine", "TestSupport",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "URLSessionRemoteTests",
            dependencies: ["URLSessionRemote", "TestSupport", .product(name: "Crypto", package: "swift-crypto")],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "IntegrationTests",
            dependencies: [
                "TestSupport", "TransferModels", "ObjectStorage",
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: swiftSettings),
    ]
)

/// The console's files (`Sources/Console/Assets`), each embedded as bytes; `ConsoleAssets.swift` serves them.
enum ConsoleAssets {
    static let files = [
        "index.html", "console.css", "app.js", "api.js", "dom.js", "format.js", "events.js", "forms.js", "sessions.js",
        "tasks.js", "task.js", "eventlog.js", "overview.js", "timeline.js", "admin.js",
    ]
}
