internal import CCurl

/// Wraps `struct curl_slist` (header lists). Owned by the easy handle that uses it; freed in deinit.
final class CurlStringList {
    private(set) var raw: UnsafeMutablePointer<curl_slist>?

    init(_ strings: [String] = []) {
        for string in strings { append(string) }
    }

    /// Wraps `curl_slist_append`, which copies the string.
    func append(_ string: String) {
        raw = curl_slist_append(raw, string)
    }

    deinit { curl_slist_free_all(raw) }
}

@available(*, unavailable) extension CurlStringList: Sendable {}
