public import Foundation

/// Which fields travel with a stored response, and how a 304 refreshes them.
extension HTTPCacheRules {
    /// Fields that describe one connection, not the response (RFC 9110 §7.6.1); `Connection`'s own list is added per message.
    static let hopByHopNames: Set<String> = ["connection", "keep-alive", "proxy-connection", "te", "transfer-encoding", "upgrade"]

    /// Fields a 304 must not change (§3.2): they describe the stored body's bytes, which the 304 did not resend.
    static let bodyFramingNames: Set<String> = ["content-length", "content-encoding", "content-range", "transfer-encoding"]

    /// The conditional fields that validate `stored` (§4.3.1): `If-None-Match: <ETag>` when it has an ETag,
    /// `If-Modified-Since: <Last-Modified>` when it has a Last-Modified (both when both); [] when it has neither.
    public static func validators(for stored: StoredResponse) -> HTTPFields {
        var fields: HTTPFields = []
        if let etag = FieldValues.first("ETag", in: stored.fields), !etag.isEmpty {
            fields.append((name: "If-None-Match", value: etag))
        }
        if let lastModified = FieldValues.first("Last-Modified", in: stored.fields), !lastModified.isEmpty {
            fields.append((name: "If-Modified-Since", value: lastModified))
        }
        return fields
    }

    /// §3.2/§4.3.4: the stored fields updated with a 304's: each field name present in the 304 replaces every stored field
    /// of that name (in place of the first one, the others dropped), new names are appended; never updated: Content-Length,
    /// Content-Encoding, Content-Range, Transfer-Encoding, Connection and the names it lists, Keep-Alive, Proxy-Connection, TE, Upgrade.
    public static func merge(_ stored: HTTPFields, withNotModified fields: HTTPFields) -> HTTPFields {
        let excluded = hopByHopNames.union(bodyFramingNames).union(FieldValues.connectionNames(in: fields))
        let updates = fields.filter { !excluded.contains($0.name.lowercased()) }
        let updatedNames = Set(updates.map { $0.name.lowercased() })
        var merged: HTTPFields = []
        var placed: Set<String> = []
        for field in stored {
            let name = field.name.lowercased()
            guard updatedNames.contains(name) else {
                merged.append(field)
                continue
            }
            if placed.insert(name).inserted {
                merged += updates.filter { $0.name.lowercased() == name }
            }
        }
        merged += updates.filter { !placed.contains($0.name.lowercased()) }
        return merged
    }

    /// The fields of a response worth storing: without hop-by-hop fields (Connection and the names it lists, Keep-Alive,
    /// Proxy-Connection, TE, Transfer-Encoding, Upgrade).
    public static func storableFields(_ fields: HTTPFields) -> HTTPFields {
        let excluded = hopByHopNames.union(FieldValues.connectionNames(in: fields))
        return fields.filter { !excluded.contains($0.name.lowercased()) }
    }

    /// The fields of `stored` served without validation at `now`: §4 says such a response MUST carry an `Age` field equal
    /// to its current_age (§4.2.3), replacing any it had, so its reader can tell how old it is (§5.1). Whole seconds; the
    /// new field takes the place of the first stored `Age` and the others are dropped, or it is appended when there was none.
    public static func servedFields(of stored: StoredResponse, now: Date) -> HTTPFields {
        // §1.2.2: a value past what delta-seconds needs to represent is sent as 2^31.
        let age = min(currentAge(of: stored, now: now), TimeInterval(CacheControl.deltaSecondsLimit))
        let field = (name: "Age", value: String(Int(age)))
        guard let first = stored.fields.firstIndex(where: { $0.name.lowercased() == "age" }) else { return stored.fields + [field] }
        var fields = stored.fields
        fields[first] = field
        return fields.enumerated().filter { $0.offset == first || $0.element.name.lowercased() != "age" }.map(\.element)
    }
}
