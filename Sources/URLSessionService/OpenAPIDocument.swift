import Foundation

/// The OpenAPI description served at `/openapi.yaml`: the project root's `openapi.yaml`, bundled.
enum OpenAPIDocument {
    static func load() throws -> [UInt8] {
        guard let url = Bundle.module.url(forResource: "openapi", withExtension: "yaml") else {
            throw ConfigurationError(setting: "openapi.yaml", detail: "the bundled OpenAPI document is missing beside the binary")
        }
        return Array(try Data(contentsOf: url))
    }
}
