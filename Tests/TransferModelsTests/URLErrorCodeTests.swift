import Foundation
import JSONCodec
import Testing
import TransferModels

@Suite("NSURLErrorDomain codes and the error object")
struct URLErrorCodeTests {
    @Test func codesAreUniqueAndApples() {
        #expect(Set(URLErrorCode.all.map(\.rawValue)).count == URLErrorCode.all.count)
        #expect(URLErrorCode.timedOut.rawValue == -1001)
        #expect(URLErrorCode.cannotConnectToHost.rawValue == -1004)
        #expect(URLErrorCode.secureConnectionFailed.rawValue == -1200)
        #expect(URLErrorCode.cannotWriteToFile.rawValue == -3003)
        #expect(URLErrorCode.code(-1007) == .httpTooManyRedirects)
    }

    @Test func errorObjectIsShapedLikeNSError() throws {
        let error = TransferError(
            .timedOut, failingURL: "https://origin.example/x",
            underlying: .init(domain: "libcurl", code: 28, message: "Operation timed out"))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(try WireJSON.encode(error))) as? [String: Any])
        #expect(object["domain"] as? String == "NSURLErrorDomain")
        #expect(object["code"] as? Int == -1001)
        #expect(object["name"] as? String == "timedOut")
        #expect(object["localizedDescription"] as? String == "The request timed out.")
        #expect((object["userInfo"] as? [String: String])?["NSErrorFailingURLStringKey"] == "https://origin.example/x")
        #expect((object["underlying"] as? [String: Any])?["code"] as? Int == 28)
    }
}
