import Foundation
import JSONCodec
public import TransferModels
import TransferStore

/// The body of an event's webhook: the event as API.md shows it (`EventObject`), its stored `data`
/// embedded as it is — it was written by `WireJSON` already, and re-encoding it per attempt would cost
/// more than the whole signature.
public enum WebhookPayload {
    public static func body(of event: EventRecord) -> [UInt8] {
        event.object.encodedJSON()
    }
}
