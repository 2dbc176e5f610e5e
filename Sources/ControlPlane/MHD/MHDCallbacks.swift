import CMicroHTTPD

// C callbacks for MHD. They capture nothing (a capturing closure converted to @convention(c) crashes
// swiftc 6.3.1); the server comes back from the `cls` pointer, kept alive by `run()`.

let mhdAccessHandler: MHD_AccessHandlerCallback = { cls, connection, url, method, _, uploadData, uploadDataSize, conCls in
    guard let cls, let connection, let uploadDataSize, let conCls else { return MHD_NO }
    let server = Unmanaged<HTTPServer>.fromOpaque(cls).takeUnretainedValue()
    return server.access(
        connection: connection, url: url, method: method, uploadData: uploadData, uploadDataSize: uploadDataSize,
        slot: conCls)
}

let mhdRequestCompleted: MHD_RequestCompletedCallback = { cls, _, conCls, _ in
    guard let cls, let conCls, let raw = conCls.pointee else { return }
    conCls.pointee = nil
    let server = Unmanaged<HTTPServer>.fromOpaque(cls).takeUnretainedValue()
    server.completed(Unmanaged<RequestContext>.fromOpaque(raw).takeRetainedValue())
}

let mhdConnectionNotify: MHD_NotifyConnectionCallback = { cls, _, _, code in
    guard let cls else { return }
    let server = Unmanaged<HTTPServer>.fromOpaque(cls).takeUnretainedValue()
    server.metrics.connectionChanged(opened: code == .CONNECTION_NOTIFY_STARTED)
}

/// Collects request headers or query arguments into a `[(name, value)]` passed as `cls`.
let mhdCollectValues: MHD_KeyValueIterator = { cls, _, key, value in
    guard let cls, let key else { return MHD_YES }
    let pairs = cls.assumingMemoryBound(to: [(name: String, value: String)].self)
    pairs.pointee.append((String(cString: key), value.map { String(cString: $0) } ?? ""))
    return MHD_YES
}

let MHD_YES = MHD_Result.YES
let MHD_NO = MHD_Result.NO
