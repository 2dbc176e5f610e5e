import TransferEngine

/// A streamed upload's body (`uploadTask(withStreamedRequest:)`) as the client's `PUT …/body` feeds it:
/// the stream the task's attempt sends from, bounded, never stored.
public struct StreamedUploadBody: Sendable {
    let stream: UploadStream

    /// Whether the transfer gave up on the body (it ended, or was cancelled): what is offered is dropped.
    public var isAbandoned: Bool { stream.isAbandoned }

    /// `handler` is called once there is room again.
    public func onWritable(_ handler: @escaping @Sendable () -> Void) { stream.onWritable(handler) }

    /// Takes as many of `bytes` as there is room for, and says how many.
    public func offer(_ bytes: UnsafeRawBufferPointer) -> Int { stream.offer(bytes) }

    /// Every byte was offered.
    public func finish() { stream.finish() }

    /// The client went away before the end.
    public func fail() { stream.fail() }
}
