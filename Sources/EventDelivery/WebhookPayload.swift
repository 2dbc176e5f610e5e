import Foundation
import TransferModels
public import TransferStore

/// The body of an event's webhook, as API.md shows an event:
/// `{"data":{…},"id":"evt_…","sequence":17,"sessionId":"ses_…","taskId":"tsk_…"|null,"timestamp":"…","type":"…"}`.
///
/// `WireJSON`'s conventions (sorted keys, unescaped slashes, RFC 3339 with milliseconds). `data` is the
/// stored JSON text embedded as is: it was written by `WireJSON` already, and re-encoding it per attempt
/// would cost more than the whole signature.
public enum WebhookPayload {
    public static func body(of event: EventRecord) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(event.data.utf8.count + 220)
        out += #"{"data":"#.utf8
        out += event.data.utf8
        out += #","id":"#.utf8
        appendString(event.id, to: &out)
        out += #","sequence":"#.utf8
        out += String(event.sequence).utf8
        out += #","sessionId":"#.utf8
        appendString(event.sessionId, to: &out)
        out += #","taskId":"#.utf8
        if let taskId = event.taskId { appendString(taskId, to: &out) } else { out += "null".utf8 }
        out += #","timestamp":"#.utf8
        appendString(WireJSON.formatTimestamp(event.timestamp), to: &out)
        out += #","type":"#.utf8
        appendString(event.type.rawValue, to: &out)
        out.append(UInt8(ascii: "}"))
        return out
    }

    /// A JSON string as `WireJSON` writes it: `"` and `\` escaped, slashes not, control characters as
    /// `\n`-style escapes or `\u00XX`.
    static func appendString(_ text: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out += #"\""#.utf8
            case UInt8(ascii: "\\"): out += #"\\"#.utf8
            case 0x0A: out += #"\n"#.utf8
            case 0x0D: out += #"\r"#.utf8
            case 0x09: out += #"\t"#.utf8
            case 0x08: out += #"\b"#.utf8
            case 0x0C: out += #"\f"#.utf8
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                out += #"\u00"#.utf8
                out.append(hex[Int(byte >> 4)])
                out.append(hex[Int(byte & 0xF)])
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}
