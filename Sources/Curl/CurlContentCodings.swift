internal import CCurl
import Foundation

/// The content and transfer codings the linked libcurl decodes, to tell which responses it could not.
///
/// libcurl 7.88.1 stacks a decoder for every coding a response's `Content-Encoding` (when `CURLOPT_ACCEPT_ENCODING`
/// is set) or `Transfer-Encoding` lists; for a name it does not know it stacks one that fails the first body write
/// with `CURLE_BAD_CONTENT_ENCODING` ("Unrecognized content encoding type"), so the whole body is lost. Browsers
/// deliver such a body as it came; turning `CurlFlagOption.httpContentDecoding` off for it does the same.
public enum CurlContentCodings {
    /// The names libcurl's content_encoding.c knows: identity (alias `none`) always; deflate, gzip and `x-gzip` with
    /// zlib; br with brotli; zstd with zstd (the features `curl_version_info` reports).
    public static let decodable: Set<String> = {
        var names: Set<String> = ["identity", "none"]
        let features = curl_version_info(CURLVERSION_FIRST)?.pointee.features ?? 0
        if features & CURL_VERSION_LIBZ != 0 { names.formUnion(["deflate", "gzip", "x-gzip"]) }
        if features & CURL_VERSION_BROTLI != 0 { names.insert("br") }
        if features & CURL_VERSION_ZSTD != 0 { names.insert("zstd") }
        return names
    }()

    /// Whether libcurl decodes every coding these field values list (RFC 9110 §8.4, RFC 9112 §6.1: comma-separated,
    /// names case-insensitive); `chunked` counts among transfer codings, where libcurl frames it itself.
    public static func decodesAll(contentEncodings: [String], transferEncodings: [String]) -> Bool {
        func codings(_ values: [String]) -> [String] {
            values.flatMap { $0.split(separator: ",") }
                .map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
                .filter { !$0.isEmpty }
        }
        return codings(contentEncodings).allSatisfy(decodable.contains)
            && codings(transferEncodings).allSatisfy { $0 == "chunked" || decodable.contains($0) }
    }
}
