import Testing
import TransferEngine
import TransferModels

@Suite("CURLcode → NSURLErrorDomain")
struct URLErrorMappingTests {
    @Test(arguments: [
        (1, -1002), (3, -1000), (5, -1003), (6, -1003), (7, -1004), (8, -1011), (16, -1005), (18, -1005),
        (23, -3003), (26, -1021), (28, -1001), (35, -1200), (42, -999), (47, -1007), (52, -1005), (55, -1005),
        (56, -1005), (58, -1205), (60, -1202), (61, -1016), (63, -1103), (67, -1013), (77, -1200), (90, -1202),
        (92, -1005), (94, -1013), (97, -1004), (98, -1206), (2, -1), (27, -1),
    ])
    func mapsEveryCurlCode(curl: Int, expected: Int) {
        #expect(URLErrorMapping.code(forCurlCode: curl).rawValue == expected)
    }

    @Test(arguments: [(10, -1201), (9, -1204), (18, -1202), (19, -1203), (20, -1203), (62, -1202), (0, -1202)])
    func refinesCertificateFailures(verifyResult: Int, expected: Int) {
        let code = URLErrorMapping.code(forCurlCode: 60, context: .init(sslVerifyResult: verifyResult))
        #expect(code.rawValue == expected)
    }

    @Test func downloadsReportDecodingInTheFileRange() {
        #expect(URLErrorMapping.code(forCurlCode: 61, context: .init(isDownload: true)) == .downloadDecodingFailedMidStream)
    }
}
