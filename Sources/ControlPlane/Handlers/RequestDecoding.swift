import Foundation
import JSONCodec
import TransferModels

extension HTTPRequest {
    /// The body as `T`, strictly: JSON only, no unknown fields, no coercion. An empty body reads as `{}`.
    public func decodeJSON<T: Decodable>(_ type: T.Type) throws -> T {
        if let contentType = header("content-type"), !body.isEmpty {
            let mediaType = contentType.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased() ?? ""
            guard mediaType == "application/json" || mediaType.hasSuffix("+json") else {
                throw Problem.unsupportedMediaType("send the body as application/json, not \(mediaType)")
            }
        }
        return try StrictJSONDecoder().decode(T.self, from: body.isEmpty ? Array("{}".utf8) : body)
    }

    /// `?limit=` and `?after=` of a list endpoint.
    public func pagination() throws -> (limit: Int, after: Int64?) {
        var limit = 100
        if let text = queryValue("limit") {
            guard let value = Int(text), (1...1000).contains(value) else {
                throw Problem.invalidValue("limit", "must be an integer from 1 to 1000")
            }
            limit = value
        }
        var after: Int64?
        if let cursor = queryValue("after"), !cursor.isEmpty {
            guard let position = Cursor.decode(cursor) else {
                throw Problem.invalidValue("after", "is not a cursor returned by this list")
            }
            after = position
        }
        return (limit, after)
    }
}

/// Opaque list cursors: the position of the last item, in base 36 behind a prefix.
public enum Cursor {
    public static func encode(_ position: Int64) -> String { "c" + String(position, radix: 36) }

    public static func decode(_ cursor: String) -> Int64? {
        guard cursor.first == "c", cursor.count <= 14, let value = Int64(cursor.dropFirst(), radix: 36), value >= 0 else {
            return nil
        }
        return value
    }

    /// The next cursor for a page of `limit` requested items whose last position is `last`.
    public static func next(count: Int, limit: Int, last: Int64?) -> String? {
        guard count == limit, let last else { return nil }
        return encode(last)
    }

    /// A page of a list held in memory, whose positions are indices: the `limit` items after `after`.
    static func page<Item>(of all: [Item], limit: Int, after: Int64?) -> Page<Item> {
        let start = min(all.count, Int(clamping: after ?? 0))
        let items = Array(all[start..<min(all.count, start + limit)])
        return Page(items: items, nextCursor: next(count: items.count, limit: limit, last: Int64(start + items.count)))
    }
}
