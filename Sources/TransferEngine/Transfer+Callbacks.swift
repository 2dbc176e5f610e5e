internal import CCurl
import Foundation

// libcurl's callbacks for a Transfer. They capture nothing (converting a capturing closure to
// @convention(c) crashes swiftc 6.3.1), stay short, and get the Transfer back from their userdata pointer;
// the engine loop's table keeps it alive for as long as the handle is in the multi.

private func transfer(_ userdata: UnsafeMutableRawPointer?) -> Transfer? {
    userdata.map { Unmanaged<Transfer>.fromOpaque($0).takeUnretainedValue() }
}

/// `CURLOPT_WRITEFUNCTION`: body bytes (decoded) to the sink; a short count fails the transfer (23).
let transferWriteCallback: curl_write_callback = { data, size, count, userdata in
    guard let transfer = transfer(userdata), let data else { return 0 }
    let length = size * count
    // The delegate is deciding about this response: libcurl keeps the bytes and offers them again.
    if transfer.waiting != nil { return Int(CURL_WRITEFUNC_PAUSE) }
    transfer.lastActivity = .now
    if transfer.discardingBody { return length }
    do {
        try transfer.sink.append(UnsafeRawBufferPointer(start: data, count: length))
        transfer.progress.bytesReceived += Int64(length)
        return length
    } catch {
        return 0
    }
}

/// `CURLOPT_HEADERFUNCTION`: one header line; a blank line completes a response head.
let transferHeaderCallback: curl_write_callback = { data, size, count, userdata in
    guard let transfer = transfer(userdata), let data else { return 0 }
    let length = size * count
    transfer.lastActivity = .now
    let line = String(decoding: UnsafeRawBufferPointer(start: data, count: length), as: UTF8.self)
    if transfer.head.consume(line: line) {
        transfer.responseHeadCompleted()
    }
    return length
}

/// `CURLOPT_XFERINFOFUNCTION`: upload counts (download counts come from the write callback, decoded),
/// reported to the observer at most every `Transfer.progressReportInterval`.
let transferProgressCallback: curl_xferinfo_callback = { userdata, _, _, _, uploadNow in
    guard let transfer = transfer(userdata) else { return 0 }
    if uploadNow > transfer.progress.bytesSent { transfer.progress.bytesSent = Int64(uploadNow) }
    transfer.reportProgressIfDue()
    return 0
}

/// `CURLOPT_READFUNCTION`: the request body from memory or its file.
let transferReadCallback: curl_read_callback = { buffer, size, count, userdata in
    guard let transfer = transfer(userdata), let buffer, let upload = transfer.upload else { return ccurl_read_func_abort() }
    transfer.lastActivity = .now
    do {
        return try upload.read(into: UnsafeMutableRawBufferPointer(start: buffer, count: size * count))
    } catch {
        return ccurl_read_func_abort()
    }
}

/// `CURLOPT_SEEKFUNCTION`: rewinds the body (authentication, connection reuse retries).
let transferSeekCallback: curl_seek_callback = { userdata, offset, origin in
    guard let transfer = transfer(userdata), let upload = transfer.upload, origin == SEEK_SET else {
        return Int32(CURL_SEEKFUNC_CANTSEEK)
    }
    upload.seek(to: Int64(offset))
    return Int32(CURL_SEEKFUNC_OK)
}

/// `CURLOPT_OPENSOCKETFUNCTION`: every resolved address passes the egress policy before `socket()`.
let transferOpenSocketCallback: curl_opensocket_callback = { userdata, _, address in
    guard let transfer = transfer(userdata) else { return ccurl_socket_bad() }
    let outcome = EgressSocket.open(address, policy: transfer.configuration.egress)
    if case .denied(let reason) = outcome { transfer.egressDenial = reason }
    return EgressSocket.callbackResult(outcome)
}
