import TransferEngine
public import TransferModels

/// The body a running data or upload task is receiving, read while it arrives (`GET /v1/tasks/{id}/data`):
/// the engine's own storage of it (memory, then its spill file), never a copy.
public struct ReceivingBody: Sendable {
    let body: GrowingBody

    /// The response's Content-Type.
    public var contentType: String? { body.contentType }
    /// The response's Content-Length; -1 when unknown.
    public var expectedLength: Int64 { body.expectedLength }

    /// Up to `count` bytes from `offset`, with what is readable now and whether the body ended.
    public func read(from offset: Int64, upTo count: Int) throws -> (bytes: [UInt8], status: ReceivedBodyStatus) {
        try body.read(from: offset, upTo: count)
    }

    /// `doorbell` rings when bytes arrive or the body ends.
    public func subscribe(_ doorbell: Doorbell) { body.subscribe(doorbell) }
    public func unsubscribe(_ doorbell: Doorbell) { body.unsubscribe(doorbell) }
}
