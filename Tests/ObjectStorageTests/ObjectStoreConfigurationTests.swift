import ObjectStorage
import Testing

@Suite("Object store configuration: URLSESSIOND_OBJECT_STORE_URL and the AWS_* keys")
struct ObjectStoreConfigurationTests {
    @Test func readsBucketPrefixEndpointAndRegion() throws {
        let configuration = try ObjectStoreConfiguration(
            url: "s3://files/node-a/kept/?endpoint=http://127.0.0.1:9000/&region=eu-west-3", accessKeyId: "AKID",
            secretAccessKey: "s3cr3t")
        #expect(configuration.bucket == "files")
        #expect(configuration.prefix == "node-a/kept")
        #expect(configuration.endpoint == "http://127.0.0.1:9000")
        #expect(configuration.region == "eu-west-3")
        #expect(configuration.key("downloads/t1") == "node-a/kept/downloads/t1")
    }

    @Test func defaultsToUSEast1AndNoPrefix() throws {
        let configuration = try ObjectStoreConfiguration(
            url: "s3://files?endpoint=https://s3.example.net", accessKeyId: "AKID", secretAccessKey: "s3cr3t")
        #expect(configuration.region == "us-east-1")
        #expect(configuration.prefix == "")
        #expect(configuration.key("downloads/t1") == "downloads/t1")
    }

    @Test(arguments: [
        "http://files?endpoint=http://127.0.0.1:9000",  // not s3://
        "s3://files",  // no endpoint
        "s3://files?endpoint=ftp://127.0.0.1",  // not http(s)
        "s3://files?endpoint=http://127.0.0.1:9000/path",  // a path on the endpoint
        "s3://AKID:s3cr3t@files?endpoint=http://127.0.0.1:9000",  // credentials in the URL
        "s3://files?endpoint=http://127.0.0.1:9000&region=us east",
    ])
    func refusesUnusableURLs(url: String) {
        #expect(throws: ObjectStoreError.self) {
            try ObjectStoreConfiguration(url: url, accessKeyId: "AKID", secretAccessKey: "s3cr3t")
        }
    }

    @Test func needsBothKeys() {
        for (key, secret) in [(nil, "s3cr3t"), ("AKID", nil), ("", "s3cr3t"), ("AKID", "")] {
            #expect(throws: ObjectStoreError.self) {
                try ObjectStoreConfiguration(url: "s3://files?endpoint=http://127.0.0.1:9000", accessKeyId: key, secretAccessKey: secret)
            }
        }
    }

    @Test func descriptionLeavesTheSecretOut() throws {
        let configuration = try ObjectStoreConfiguration(
            url: "s3://files/p?endpoint=http://127.0.0.1:9000", accessKeyId: "AKID", secretAccessKey: "s3cr3t-value")
        #expect(!configuration.description.contains("s3cr3t-value"))
        #expect(!String(describing: configuration).contains("s3cr3t-value"))
        #expect(configuration.description.contains("AKID"))
    }
}
