import Foundation
import JSONCodec
import Testing
import TransferModels

/// The session object's `delivery` member: every name always present, null where there is no value.
@Suite("Delegate delivery on the wire")
struct DelegateDeliveryWireTests {
    @Test func everyMemberIsWrittenNullsIncluded() throws {
        let delivery = DelegateDelivery(
            state: .retrying, pendingEvents: 3, deliveredThrough: 7, lastDeliveredAt: nil, consecutiveFailures: 2,
            lastFailure: .init(at: Date(timeIntervalSince1970: 1_795_000_000.5), reason: "HTTP 500"),
            nextAttemptAt: Date(timeIntervalSince1970: 1_795_000_600), heldAt: nil, disabledAt: nil)
        let text = String(decoding: try WireJSON.encode(delivery), as: UTF8.self)
        #expect(
            text
                == #"{"consecutiveFailures":2,"deliveredThrough":7,"disabledAt":null,"heldAt":null,"#
                + #""lastDeliveredAt":null,"lastFailure":{"at":"2026-11-18T11:06:40.500Z","reason":"HTTP 500"},"#
                + #""nextAttemptAt":"2026-11-18T11:16:40.000Z","pendingEvents":3,"state":"retrying"}"#)

        let session = TransferSession(
            id: "ses_0000000000000000000000", configuration: SessionConfiguration(kind: .default), delegate: nil,
            sessionDescription: nil, state: .valid, createdAt: Date(timeIntervalSince1970: 1_795_000_000))
        #expect(String(decoding: try WireJSON.encode(session), as: UTF8.self).contains(#""delivery":null"#))
    }
}
