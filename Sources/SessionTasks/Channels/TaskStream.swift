import TransferEngine
public import TransferModels

/// A stream task's connection as the API uses it (`URLSessionStreamTask`'s reads, writes and closes): the
/// engine's channel, behind the task layer.
public struct TaskStream: Sendable {
    let channel: StreamChannel

    /// The most received bytes held before reading stops (so the most one read can ask for).
    public static var bufferLimit: Int { StreamChannel.bufferLimit }

    /// `readData(ofMinLength:maxLength:timeout:)`.
    public func read(minBytes: Int, maxBytes: Int, timeout: Duration) async -> StreamReadResult {
        await channel.read(minBytes: minBytes, maxBytes: maxBytes, timeout: timeout)
    }

    /// `write(_:timeout:)`, after what was queued before.
    public func write(_ bytes: [UInt8], timeout: Duration) async -> StreamWriteResult {
        await channel.write(bytes, timeout: timeout)
    }

    /// `closeWrite()`; false when the connection ended or the write side is closed.
    public func closeWrite() -> Bool { channel.closeWrite() }

    /// `closeRead()`; false when the connection ended.
    public func closeRead() -> Bool { channel.closeRead() }

    /// `startSecureConnection()`; false when the connection ended or the write side is closed.
    public func startSecureConnection() -> Bool { channel.startSecureConnection() }
}
