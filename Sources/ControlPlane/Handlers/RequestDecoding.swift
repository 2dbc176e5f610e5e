import Foundation
import JSONCodec
import SessionTasks
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

    /// The integer query parameter `name` (`value` when absent), or 422 naming it when outside `range`.
    func integerQuery<T: FixedWidthInteger>(_ name: String, default value: T, _ range: ClosedRange<T>) throws -> T {
        guard let text = queryValue(name) else { return value }
        guard let number = T(text), range.contains(number) else {
            throw Problem.invalidValue(name, "must be an integer from \(range.lowerBound) to \(range.upperBound)")
        }
        return number
    }

    /// `?limit=` and `?after=` of a list endpoint. `after` must be a cursor this list gave this tenant
    /// (see `PageCursors`); anything else is 400 naming `after`.
    func pagination(_ cursors: PageCursors) throws -> Pagination {
        var limit = 100
        if let text = queryValue("limit") {
            guard let value = Int(text), (1...1000).contains(value) else {
                throw Problem.invalidValue("limit", "must be an integer from 1 to 1000")
            }
            limit = value
        }
        var pagination = Pagination(limit: limit, cursors: cursors, tenant: tenant, list: path)
        if let cursor = queryValue("after") {  // an empty one too: no list gave it
            guard let position = cursors.position(of: cursor, tenant: tenant, list: path) else {
                throw Problem.invalidCursor("is not a cursor this list gave this token's tenant")
            }
            pagination.after = position
        }
        return pagination
    }
}

/// A list request's page: how many items, after which position, and how to write the next cursor. A
/// cursor is bound to the tenant and the list's path, so it is useless anywhere else.
struct Pagination {
    var limit: Int
    /// The position of the last item of the previous page (exclusive); nil: from the first.
    var after: Int64?
    let cursors: PageCursors
    let tenant: String
    let list: String

    init(limit: Int, cursors: PageCursors, tenant: String, list: String) {
        self.limit = limit
        self.cursors = cursors
        self.tenant = tenant
        self.list = list
    }

    /// A page of `items` read from the store, whose last item is at position `last`: a next cursor only
    /// when the page is full.
    func page<Item>(_ items: [Item], last: Int64?) throws -> Page<Item> {
        guard items.count == limit, let last else { return Page(items: items, nextCursor: nil) }
        return Page(items: items, nextCursor: try cursors.cursor(position: last, tenant: tenant, list: list))
    }

    /// A page of a list held in memory, whose positions are indices: the `limit` items after `after`.
    func page<Item>(of all: [Item]) throws -> Page<Item> {
        let start = min(all.count, Int(clamping: after ?? 0))
        let items = Array(all[start..<min(all.count, start + limit)])
        return try page(items, last: Int64(start + items.count))
    }
}
