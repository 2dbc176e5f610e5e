// swift-tools-version: 6.1
// Only a way to build Apple's swift-openapi-generator at a pinned version: `tools/openapi-swift-lint.sh`
// runs it over openapi.yaml. Not part of the service's package, so the service's build never pays for it.
import PackageDescription

let package = Package(
    name: "openapi-swift-lint",
    dependencies: [.package(url: "https://github.com/apple/swift-openapi-generator", exact: "1.14.3")],
    targets: []
)
