internal import Foundation

/// Runs `body` against a freshly started `urlsessiond` on its own temporary data directory, then stops it.
///
/// Afterwards the service gets SIGTERM and the data directory is removed, whether `body` returned or threw.
/// When `body` succeeds the service must also shut down gracefully, i.e. exit with status 0 within 20 s:
/// otherwise this throws ``ServiceProcessError``, so every end-to-end test checks graceful shutdown too.
/// The log file is removed on success and kept on any failure (its path is in the error or on stderr).
/// With `networkNamespace`, the service runs inside that namespace behind a relay (``ServiceProcess``);
/// `droppingCapabilities` runs it without those capabilities.
///
/// ```swift
/// try await withRunningService(environment: ["URLSESSIOND_TOKENS": "token-a-0123456789:tenantA:admin"]) { service, client in
///     let response = try await client.send(.get("\(service.baseURL)/v1/sessions", token: "t1"))
///     #expect(response.status == 200)
/// }
/// ```
public func withRunningService<T>(
    environment: [String: String] = [:],
    arguments: [String] = [],
    networkNamespace: String? = nil,
    droppingCapabilities: [String] = [],
    isolation: isolated (any Actor)? = #isolation,
    _ body: (ServiceProcess, HTTPClient) async throws -> T
) async throws -> T {
    let directory = try TemporaryDirectory.make(prefix: "urlsessiond-e2e")
    let service: ServiceProcess
    do {
        service = try await ServiceProcess.start(
            dataDirectory: directory.url, environment: environment, arguments: arguments,
            networkNamespace: networkNamespace, droppingCapabilities: droppingCapabilities)
    } catch {
        directory.remove()
        throw error
    }

    let result: T
    do {
        result = try await body(service, HTTPClient())
    } catch {
        _ = try? await service.terminate()
        directory.remove()
        reportKeptLog(of: service)
        throw error
    }

    let status: Int32
    do {
        status = try await service.terminate()
    } catch {
        directory.remove()
        throw error
    }
    directory.remove()
    guard status == 0 else {
        throw ServiceProcessError("urlsessiond exited with status \(status) after SIGTERM", logFile: service.logFile)
    }
    try? FileManager.default.removeItem(at: service.logFile)
    return result
}

private func reportKeptLog(of service: ServiceProcess) {
    let line = "withRunningService: urlsessiond log kept at \(service.logFile.path)\n"
    FileHandle.standardError.write(Data(line.utf8))
}
