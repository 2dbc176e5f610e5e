import CMicroHTTPD
import Foundation
import Logging
import Synchronization
import TransferModels

extension HTTPServer {
    /// MHD's access handler: called once with the headers, once per body chunk, then once more (and once
    /// again after a resume) with no data. Answers are queued only from the last kind of call, because
    /// MHD 0.9.75 drops keep-alive for answers queued on the first one. A request refused before its body
    /// (too large, unauthenticated) is answered there only when the body will not come (`Expect:
    /// 100-continue`) or is too large to read: otherwise its body is read and discarded first, because
    /// closing with unread bytes makes the kernel reset the connection, and the client loses the answer
    /// while it is still sending (as nginx's lingering close avoids).
    func access(
        connection: OpaquePointer, url: UnsafePointer<CChar>?, method: UnsafePointer<CChar>?,
        uploadData: UnsafePointer<CChar>?, uploadDataSize: UnsafeMutablePointer<Int>,
        slot: UnsafeMutablePointer<UnsafeMutableRawPointer?>
    ) -> MHD_Result {
        guard let raw = slot.pointee else {
            let context = begin(connection: connection, url: url, method: method)
            liveRequests.wrappingAdd(1, ordering: .relaxed)
            slot.pointee = Unmanaged.passRetained(context).toOpaque()
            if context.response != nil && expectsBody(context) && !discardsBody(context) {
                return queue(context)
            }
            return MHD_YES
        }
        let context = Unmanaged<RequestContext>.fromOpaque(raw).takeUnretainedValue()
        if uploadDataSize.pointee > 0 {
            return receive(context, data: uploadData, count: uploadDataSize)
        }
        if context.response != nil { return queue(context) }
        if context.isDispatched {
            context.response = Problem.internalError.response
            return queue(context)
        }
        return handle(context)
    }

    /// First call: read headers and query, pass the head through the pipeline (the route and its head
    /// steps), decide where the body goes, check the announced size.
    private func begin(connection: OpaquePointer, url: UnsafePointer<CChar>?, method: UnsafePointer<CChar>?) -> RequestContext {
        var headers: [(name: String, value: String)] = []
        var query: [(name: String, value: String)] = []
        withUnsafeMutablePointer(to: &headers) { _ = MHD_get_connection_values(connection, .HEADER_KIND, mhdCollectValues, $0) }
        withUnsafeMutablePointer(to: &query) { _ = MHD_get_connection_values(connection, .GET_ARGUMENT_KIND, mhdCollectValues, $0) }
        for index in headers.indices { headers[index].name = headers[index].name.lowercased() }
        let methodName = method.map { String(cString: $0) } ?? "GET"
        let path = url.map { String(cString: $0) } ?? "/"
        let request = HTTPRequest(
            method: methodName, path: path, query: query, headers: headers, body: [], spooledBody: nil, parameters: [:],
            principal: nil, requestID: Self.requestID(from: headers))
        let context = RequestContext(connection: connection, request: request, bodyLimit: configuration.maximumJSONBodySize)
        if let problem = oversizedHead(path: path, query: query, headers: headers) {
            context.response = problem.response
            return context
        }

        let admission = pipeline.admit(&context.request)
        context.route = admission.route
        context.bodyQuota = admission.bodyQuota
        if let refusal = admission.refusal {
            context.response = refusal
        } else if let route = admission.route {
            if let resolve = route.streamsBodyInto {
                context.bodyLimit = .max  // a streamed body has no size limit: it is never held
                switch resolve(context.request) {
                case .stream(let stream):
                    let body = StreamedRequestBody(target: stream, connection: connection)
                    context.streamedBody = body
                    hangupWatch.watch(body)
                case .refused(let problem):
                    context.response = problem.response
                case .later(let decide):
                    let body = StreamedRequestBody(target: nil, connection: connection)
                    context.streamedBody = body
                    hangupWatch.watch(body)
                    Task {
                        switch await decide() {
                        case .success(let stream): body.resolve(stream)
                        case .failure(let problem): body.refuse(problem)
                        }
                    }
                }
            } else if route.spoolsBody {
                context.bodyLimit = configuration.maximumBlobSize
                do {
                    context.spool = try BodySpool(directory: configuration.spoolDirectory)
                } catch {
                    context.response = problemResponse(for: error, request: context.request)
                }
            }
        }
        if context.response == nil, let length = context.request.header("content-length").flatMap(Int64.init) {
            if length > context.bodyLimit {
                context.response = Problem.payloadTooLarge(limit: context.bodyLimit).response
            } else if let exceeded = context.bodyQuota?.refusal(bodyBytes: length) {
                refuse(context, over: exceeded)
            }
        }
        return context
    }

    /// 414 or 431 for a head over the service's limits (MHD answers only heads over its larger memory limit).
    private func oversizedHead(path: String, query: [(name: String, value: String)], headers: [(name: String, value: String)]) -> Problem? {
        // As sent, roughly: `?`, `=` and `&` once each per argument (the values arrive decoded).
        let target = query.reduce(path.utf8.count) { $0 + $1.name.utf8.count + $1.value.utf8.count + 2 }
        if target > configuration.maximumURILength { return .uriTooLong(limit: configuration.maximumURILength) }
        let fields = headers.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count + 4 }
        if fields > configuration.headerMemoryLimit { return .headerFieldsTooLarge(limit: configuration.headerMemoryLimit) }
        return nil
    }

    /// The body would take the tenant past a quota (`RouteStep.quota`): refused, and what was spooled removed.
    private func refuse(_ context: RequestContext, over exceeded: QuotaExceeded) {
        context.response = problemResponse(for: exceeded, request: context.request)
        context.spool?.discard()
        context.spool = nil
    }

    /// A body chunk: into memory or the spool file, or discarded once the request is already answered.
    private func receive(_ context: RequestContext, data: UnsafePointer<CChar>?, count: UnsafeMutablePointer<Int>) -> MHD_Result {
        if context.response == nil, let streamed = context.streamedBody, let data {
            let chunk = UnsafeRawBufferPointer(start: data, count: count.pointee)
            let before = count.pointee
            if case .refused(let problem) = streamed.receive(chunk, count: count) { context.response = problem.response }
            context.receivedBodyBytes += Int64(before - count.pointee)
            return MHD_YES
        }
        let size = count.pointee
        count.pointee = 0
        context.receivedBodyBytes += Int64(size)
        guard context.response == nil else {
            // Already answered: dropped, up to a bound; a client that keeps sending past it is cut off.
            context.discardedBodyBytes += Int64(size)
            return context.discardedBodyBytes > Self.discardedBodyLimit ? MHD_NO : MHD_YES
        }
        if context.receivedBodyBytes > context.bodyLimit {
            context.response = Problem.payloadTooLarge(limit: context.bodyLimit).response
            context.spool?.discard()
            context.spool = nil
            context.request.body = []
        } else if let exceeded = context.bodyQuota?.refusal(bodyBytes: context.receivedBodyBytes) {
            refuse(context, over: exceeded)
        } else if let data {
            let buffer = UnsafeRawBufferPointer(start: data, count: size)
            if let spool = context.spool {
                do { try spool.append(buffer) } catch {
                    context.response = problemResponse(for: error, request: context.request)
                }
            } else {
                context.request.body.append(contentsOf: buffer)
            }
        }
        return MHD_YES
    }

    /// The whole request is in: answer from memory, or suspend and answer asynchronously.
    private func handle(_ context: RequestContext) -> MHD_Result {
        guard let route = context.route else {
            context.response = Problem.internalError.response
            return queue(context)
        }
        if let streamed = context.streamedBody {
            switch streamed.finish() {
            case nil:  // the origin gets the end of the body; the client its answer at once
                context.response = HTTPResponse(status: 204, headers: [], body: .bytes([]))
            case .refused(let problem):
                context.response = problem.response
            case .passedOn:
                return MHD_YES  // suspended until the refusal is decided
            }
            return queue(context)
        }
        if let spool = context.spool {
            do { context.request.spooledBody = try spool.finish() } catch {
                context.response = problemResponse(for: error, request: context.request)
                return queue(context)
            }
        }
        if let response = pipeline.respondFast(to: context.request, route: route) {
            context.response = response
            return queue(context)
        }
        context.isDispatched = true
        MHD_suspend_connection(context.connection)
        if !dispatch(context) {
            context.response = Problem.shuttingDown.response
            MHD_resume_connection(context.connection)
        }
        return MHD_YES
    }

    /// The most of a refused request's body that is read and dropped so that its answer arrives intact.
    static let discardedBodyLimit: Int64 = 8 << 20

    /// Whether a request refused on its headers has its body read and dropped before the answer.
    private func discardsBody(_ context: RequestContext) -> Bool {
        if context.request.header("expect")?.lowercased() == "100-continue" { return false }
        guard let length = context.request.header("content-length") else { return true }  // chunked: cut off at the limit
        return Int64(length).map { $0 <= Self.discardedBodyLimit } ?? false
    }

    private func expectsBody(_ context: RequestContext) -> Bool {
        if let length = context.request.header("content-length") { return length != "0" }
        return context.request.header("transfer-encoding") != nil
    }

    /// Builds the MHD response for `context.response` and queues it. An answer MHD cannot take (it refused
    /// the body) becomes a 500: only a failure to queue even that drops the connection.
    private func queue(_ context: RequestContext) -> MHD_Result {
        var response = context.response ?? Problem.internalError.response
        var made = makeMHDResponse(response, context: context)
        if made == nil {
            var logger = self.logger
            logger[metadataKey: "request.id"] = "\(context.request.requestID)"
            logger.error("MHD refused an answer's body", metadata: ["http.status": "\(response.status)"])
            response = Problem.internalError.response
            made = makeMHDResponse(response, context: context)
        }
        guard let mhdResponse = made else { return MHD_NO }
        defer { MHD_destroy_response(mhdResponse) }
        for (name, value) in response.headers {
            _ = MHD_add_response_header(mhdResponse, name, value)
        }
        _ = MHD_add_response_header(mhdResponse, "X-Request-Id", context.request.requestID)
        if isShuttingDown.load(ordering: .acquiring), response.status != 101 {  // a 101's Connection is Upgrade
            _ = MHD_add_response_header(mhdResponse, "Connection", "close")  // clients reconnect elsewhere
        }
        context.queuedStatus = response.status
        return MHD_queue_response(context.connection, UInt32(response.status), mhdResponse)
    }

    /// The MHD response for `response`'s body; nil when MHD refuses it (out of memory, a length it cannot send).
    private func makeMHDResponse(_ response: HTTPResponse, context: RequestContext) -> OpaquePointer? {
        switch response.body {
        case .bytes(let bytes):
            return bytes.withUnsafeBytes { buffer in
                MHD_create_response_from_buffer(buffer.count, UnsafeMutableRawPointer(mutating: buffer.baseAddress), .RESPMEM_MUST_COPY)
            }
        case .file(let file, let offset, let length):
            // MHD owns and closes the descriptor once it made a response of it; otherwise the file still does.
            return file.handOver { descriptor in MHD_create_response_from_fd_at_offset64(length, descriptor, offset) }
        case .stream(let stream):
            return stream.makeMHDResponse(connection: context.connection)
        case .upgrade:
            // The handler finds the request's `upgrade` through con_cls (set before the resume).
            return MHD_create_response_for_upgrade(mhdUpgradeHandler, nil)
        }
    }

    /// NOTIFY_COMPLETED: the answer is sent (or the connection died); record it and free the request.
    func completed(_ context: RequestContext) {
        liveRequests.wrappingSubtract(1, ordering: .relaxed)
        if let stream = context.stream {
            openStreams.withLock { _ = $0.removeValue(forKey: ObjectIdentifier(stream)) }
            stream.detach()  // its producer stops: nobody reads any more
        }
        context.spool?.discard()
        context.upgrade?.abandon()  // the 101 was never sent (after a take-over, nothing happens)
        context.streamedBody?.abandon()  // a client that left mid-body fails the upload (-1021)
        let elapsed = ContinuousClock.now - context.startedAt
        metrics.requestFinished(
            route: context.route?.name ?? "unmatched", method: context.request.method,
            status: context.queuedStatus, duration: elapsed)
        if logger.logLevel <= .debug {
            var logger = self.logger
            logger[metadataKey: "request.id"] = "\(context.request.requestID)"
            var metadata: Logger.Metadata = [
                "http.method": "\(context.request.method)", "http.path": "\(context.route?.name ?? "unmatched")",
                "http.status": "\(context.queuedStatus)", "http.duration_ms": "\(elapsed.milliseconds)",
            ]
            // Who asked, about what: the tenant, and the task or session the route names.
            if let principal = context.request.principal { metadata["tenant"] = "\(principal.tenant)" }
            if let id = context.request.parameters["id"], let route = context.route?.name {
                if route.hasPrefix("/v1/tasks/") { metadata["task.id"] = "\(id)" }
                if route.hasPrefix("/v1/sessions/") { metadata["session.id"] = "\(id)" }
            }
            logger.debug("Request answered", metadata: metadata)
        }
    }

    /// The client's `X-Request-Id` when it is short and printable, otherwise a new random one.
    static func requestID(from headers: [(name: String, value: String)]) -> String {
        if let given = headers.first(where: { $0.name == "x-request-id" })?.value, (1...128).contains(given.utf8.count),
            given.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F })
        {
            return given
        }
        var generator = SystemRandomNumberGenerator()
        let value = (generator.next() as UInt64)
        let hex = String(value, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}

extension Duration {
    var milliseconds: Double { Double(components.seconds) * 1000 + Double(components.attoseconds) / 1e15 }
}
