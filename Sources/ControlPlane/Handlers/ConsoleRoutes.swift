import Console

/// `GET /console` and `GET /console/{file}`: the operator console's page and files, from memory, with its
/// security headers (`ConsoleFiles.headers`). Open: the page holds no data; it asks for a token and calls
/// the API with it.
struct ConsoleRoutes {
    var routes: [Route] {
        [
            Route("GET", "/console", steps: [], fast: { _ in Self.response(ConsoleFiles.page) }) { _ in
                Self.response(ConsoleFiles.page)
            },
            Route("GET", "/console/{file}", steps: [], fast: { try Self.file($0) }) { try Self.file($0) },
        ]
    }

    private static func file(_ request: HTTPRequest) throws -> HTTPResponse {
        let name = request.parameter("file")
        guard let file = ConsoleFiles.file(named: name) else { throw Problem.notFound("the console has no file \(name)") }
        return response(file)
    }

    private static func response(_ file: ConsoleFiles.File) -> HTTPResponse {
        HTTPResponse(status: 200, headers: [("Content-Type", file.contentType)] + ConsoleFiles.headers, body: .bytes(file.bytes))
    }
}
