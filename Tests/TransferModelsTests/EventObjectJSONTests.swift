import Foundation
import JSONCodec
import Testing
import TransferModels

/// `EventObject.encodedJSON()` writes by hand what `WireJSON.encode` writes for the event: every webhook and
/// stream frame goes through it, so any difference would be a change of the wire.
@Suite("EventObject's direct JSON")
struct EventObjectJSONTests {
    static let dates = [
        Date(timeIntervalSince1970: 0), Date(timeIntervalSince1970: 1_764_556_800.123),
        Date(timeIntervalSince1970: 1_764_556_800.9996), Date(timeIntervalSince1970: -86_400.5),
        Date(timeIntervalSince1970: 253_402_300_799.999),
    ]

    @Test(arguments: dates)
    func isWhatWireJSONWrites(timestamp: Date) throws {
        let samples = [
            EventObject(
                data: EncodedJSON(#"{"task":{"id":"tsk_1","state":"running"},"bytesSent":17}"#), id: "evt_0123456789abcdef",
                sequence: 1, sessionId: "ses_0123456789abcdef", taskId: "tsk_1", timestamp: timestamp, type: .taskDidSendBodyData),
            EventObject(
                data: EncodedJSON("{}"), id: "evt_2", sequence: Int64.max, sessionId: "ses_2", taskId: nil, timestamp: timestamp,
                type: .sessionDidBecomeInvalidWithError),
            // Strings a store should never hold, escaped the same way all the same.
            EventObject(
                data: EncodedJSON(#"{"a":"\u0001"}"#), id: "evt_\"quoted\"\\/", sequence: 0, sessionId: "ses_é\n\t",
                taskId: "tsk_\u{1F600}\u{7F}", timestamp: timestamp, type: .taskDidCompleteWithError),
        ]
        for sample in samples {
            let direct = sample.encodedJSON()
            let encoded = try WireJSON.encode(sample)
            #expect(direct == encoded, "\(String(decoding: direct, as: UTF8.self)) ≠ \(String(decoding: encoded, as: UTF8.self))")
        }
    }
}
