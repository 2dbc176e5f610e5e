public import Foundation

/// The rules of a private HTTP cache (RFC 9111), as pure functions of messages and clocks.
///
/// Nothing here stores anything or talks to the network: the caller keeps responses and asks these rules what
/// may be stored, what is fresh and what to send, so every decision can be tested without I/O.
public enum HTTPCacheRules {
    /// Statuses a cache may give a heuristic lifetime (RFC 9110 §15.1): their meaning does not depend on the moment.
    static let heuristicallyCacheableStatuses: Set<Int> = [200, 203, 204, 300, 301, 308, 404, 405, 410, 414, 501]

    /// §3: whether a private cache may store this response to this request: method GET only; status final, not 206 or 304;
    /// heuristically cacheable status, explicit freshness (max-age, Expires), `public` or `private`; no `no-store` in
    /// request or response; `Vary` not `*`.
    ///
    /// `private` is accepted too: §3 lets a cache that is not shared store what that directive marks, which is
    /// exactly what a per-session cache is.
    public static func isStorable(method: String, requestFields: HTTPFields, statusCode: Int, responseFields: HTTPFields) -> Bool {
        guard method == "GET", (200...599).contains(statusCode), statusCode != 206, statusCode != 304 else { return false }
        let request = CacheControl(fields: requestFields)
        let response = CacheControl(fields: responseFields)
        guard !request.noStore, !response.noStore, varyNames(of: responseFields) != nil else { return false }
        return heuristicallyCacheableStatuses.contains(statusCode) || response.maxAge != nil
            || FieldValues.contains("Expires", in: responseFields) || response.isPublic || response.isPrivate
    }

    /// §4.2.1 for a private cache: max-age, else Expires − Date (Date absent: responseTime; an invalid Expires such as "0"
    /// means already expired: 0), else heuristic freshness of 10% of (Date − Last-Modified) when the status is
    /// heuristically cacheable and there is no explicit freshness, else 0. Never negative.
    ///
    /// Several `Expires` fields are invalid as a whole (the field takes one HTTP-date, §5.3): §4.2.1 lets a cache
    /// consider such a response stale rather than pick one, and picking could keep it fresh against the sender's
    /// other value.
    public static func freshnessLifetime(of response: StoredResponse) -> TimeInterval {
        if let maxAge = CacheControl(fields: response.fields).maxAge { return TimeInterval(maxAge) }
        let date = dateValue(of: response)
        let expires = FieldValues.all("Expires", in: response.fields)
        if !expires.isEmpty {
            guard expires.count == 1, let expiry = HTTPDate.parse(FieldValues.trimmed(expires[0]), now: response.responseTime)
            else { return 0 }
            return max(0, expiry.timeIntervalSince(date))
        }
        guard heuristicallyCacheableStatuses.contains(response.statusCode),
            let lastModified = dateField("Last-Modified", of: response)
        else { return 0 }
        // §4.2.2's suggested fraction: a document unchanged for long is likely to stay unchanged a while.
        return max(0, date.timeIntervalSince(lastModified) / 10)
    }

    /// §4.2.3 current_age: apparent_age = max(0, response_time − date_value); response_delay = response_time − request_time;
    /// corrected_age_value = age_value + response_delay; corrected_initial_age = max(apparent_age, corrected_age_value);
    /// resident_time = now − response_time; current_age = corrected_initial_age + resident_time.
    ///
    /// Clock steps backwards (a response "before" its request, `now` before the response) count as 0, never as
    /// negative time that would make a response look younger than it is.
    public static func currentAge(of response: StoredResponse, now: Date) -> TimeInterval {
        let apparentAge = max(0, response.responseTime.timeIntervalSince(dateValue(of: response)))
        let responseDelay = max(0, response.responseTime.timeIntervalSince(response.requestTime))
        let correctedAgeValue = ageValue(of: response.fields) + responseDelay
        let correctedInitialAge = max(apparentAge, correctedAgeValue)
        let residentTime = max(0, now.timeIntervalSince(response.responseTime))
        return correctedInitialAge + residentTime
    }

    /// The `Date` field, or when the response arrived if it has none or an unreadable one (§6.6.1 of RFC 9110 lets a
    /// recipient assume the time of receipt).
    static func dateValue(of response: StoredResponse) -> Date {
        dateField("Date", of: response) ?? response.responseTime
    }

    /// The first field named `name` as an HTTP-date; nil when absent or not one. Its arrival places a two-digit year.
    static func dateField(_ name: String, of response: StoredResponse) -> Date? {
        FieldValues.first(name, in: response.fields).flatMap { HTTPDate.parse($0, now: response.responseTime) }
    }

    /// The `Age` field's delta-seconds (§5.1); 0 when absent or not a number.
    static func ageValue(of fields: HTTPFields) -> TimeInterval {
        guard let age = FieldValues.first("Age", in: fields) else { return 0 }
        return TimeInterval(CacheControl.deltaSeconds(age))
    }
}
