/// `NSURLErrorDomain` codes (NSURLError.h), with URLError.Code's Swift case names and Apple's
/// localized descriptions.
public struct URLErrorCode: Hashable, Sendable, CustomStringConvertible {
    public let rawValue: Int
    /// The `URLError.Code` case name (`timedOut`).
    public let name: String
    /// The `localizedDescription` Apple's Foundation gives it.
    public let localizedDescription: String

    private init(_ rawValue: Int, _ name: String, _ localizedDescription: String) {
        self.rawValue = rawValue
        self.name = name
        self.localizedDescription = localizedDescription
    }

    public var description: String { "\(name) (\(rawValue))" }

    public static let unknown = Self(-1, "unknown", "An unknown error occurred.")
    public static let cancelled = Self(-999, "cancelled", "cancelled")
    public static let backgroundSessionWasDisconnected = Self(
        -997, "backgroundSessionWasDisconnected", "The background session was disconnected.")
    public static let badURL = Self(-1000, "badURL", "bad URL")
    public static let timedOut = Self(-1001, "timedOut", "The request timed out.")
    public static let unsupportedURL = Self(-1002, "unsupportedURL", "unsupported URL")
    public static let cannotFindHost = Self(-1003, "cannotFindHost", "A server with the specified hostname could not be found.")
    public static let cannotConnectToHost = Self(-1004, "cannotConnectToHost", "Could not connect to the server.")
    public static let networkConnectionLost = Self(-1005, "networkConnectionLost", "The network connection was lost.")
    public static let dnsLookupFailed = Self(-1006, "dnsLookupFailed", "The DNS lookup failed.")
    public static let httpTooManyRedirects = Self(-1007, "httpTooManyRedirects", "too many HTTP redirects")
    public static let resourceUnavailable = Self(-1008, "resourceUnavailable", "resource unavailable")
    public static let notConnectedToInternet = Self(-1009, "notConnectedToInternet", "The Internet connection appears to be offline.")
    public static let redirectToNonExistentLocation = Self(-1010, "redirectToNonExistentLocation", "redirect to non-existent location")
    public static let badServerResponse = Self(-1011, "badServerResponse", "bad server response")
    public static let userCancelledAuthentication = Self(
        -1012, "userCancelledAuthentication", "The operation couldn’t be completed. (NSURLErrorDomain error -1012.)")
    public static let userAuthenticationRequired = Self(
        -1013, "userAuthenticationRequired", "The operation couldn’t be completed. (NSURLErrorDomain error -1013.)")
    public static let zeroByteResource = Self(-1014, "zeroByteResource", "zero byte resource")
    public static let cannotDecodeRawData = Self(-1015, "cannotDecodeRawData", "cannot decode raw data")
    public static let cannotDecodeContentData = Self(-1016, "cannotDecodeContentData", "cannot decode content data")
    public static let cannotParseResponse = Self(-1017, "cannotParseResponse", "cannot parse response")
    public static let dataNotAllowed = Self(-1020, "dataNotAllowed", "A data connection is not currently allowed.")
    public static let requestBodyStreamExhausted = Self(-1021, "requestBodyStreamExhausted", "request body stream exhausted")
    public static let fileDoesNotExist = Self(-1100, "fileDoesNotExist", "The requested URL was not found on this server.")
    public static let fileIsDirectory = Self(-1101, "fileIsDirectory", "file is directory")
    public static let noPermissionsToReadFile = Self(-1102, "noPermissionsToReadFile", "no permission to read file")
    public static let dataLengthExceedsMaximum = Self(-1103, "dataLengthExceedsMaximum", "resource exceeds maximum size")
    public static let secureConnectionFailed = Self(
        -1200, "secureConnectionFailed", "An SSL error has occurred and a secure connection to the server cannot be made.")
    public static let serverCertificateHasBadDate = Self(
        -1201, "serverCertificateHasBadDate", "The certificate for this server has expired.")
    public static let serverCertificateUntrusted = Self(-1202, "serverCertificateUntrusted", "The certificate for this server is invalid.")
    public static let serverCertificateHasUnknownRoot = Self(
        -1203, "serverCertificateHasUnknownRoot", "The certificate for this server was signed by an unknown certifying authority.")
    public static let serverCertificateNotYetValid = Self(
        -1204, "serverCertificateNotYetValid", "The certificate for this server is not yet valid.")
    public static let clientCertificateRejected = Self(-1205, "clientCertificateRejected", "The server did not accept the certificate.")
    public static let clientCertificateRequired = Self(-1206, "clientCertificateRequired", "The server requires a client certificate.")
    public static let cannotLoadFromNetwork = Self(-2000, "cannotLoadFromNetwork", "can’t load from network")
    public static let cannotCreateFile = Self(-3000, "cannotCreateFile", "cannot create file")
    public static let cannotOpenFile = Self(-3001, "cannotOpenFile", "cannot open file")
    public static let cannotCloseFile = Self(-3002, "cannotCloseFile", "cannot close file")
    public static let cannotWriteToFile = Self(-3003, "cannotWriteToFile", "cannot write to file")
    public static let cannotRemoveFile = Self(-3004, "cannotRemoveFile", "cannot remove file")
    public static let cannotMoveFile = Self(-3005, "cannotMoveFile", "cannot move file")
    public static let downloadDecodingFailedMidStream = Self(-3006, "downloadDecodingFailedMidStream", "download decoding failed")
    public static let downloadDecodingFailedToComplete = Self(-3007, "downloadDecodingFailedToComplete", "download decoding failed")

    /// Every code above, for lookups by number.
    public static let all: [URLErrorCode] = [
        unknown, cancelled, backgroundSessionWasDisconnected, badURL, timedOut, unsupportedURL, cannotFindHost,
        cannotConnectToHost, networkConnectionLost, dnsLookupFailed, httpTooManyRedirects, resourceUnavailable,
        notConnectedToInternet, redirectToNonExistentLocation, badServerResponse, userCancelledAuthentication,
        userAuthenticationRequired, zeroByteResource, cannotDecodeRawData, cannotDecodeContentData, cannotParseResponse,
        dataNotAllowed, requestBodyStreamExhausted, fileDoesNotExist, fileIsDirectory, noPermissionsToReadFile,
        dataLengthExceedsMaximum, secureConnectionFailed, serverCertificateHasBadDate, serverCertificateUntrusted,
        serverCertificateHasUnknownRoot, serverCertificateNotYetValid, clientCertificateRejected,
        clientCertificateRequired, cannotLoadFromNetwork, cannotCreateFile, cannotOpenFile, cannotCloseFile,
        cannotWriteToFile, cannotRemoveFile, cannotMoveFile, downloadDecodingFailedMidStream,
        downloadDecodingFailedToComplete,
    ]

    public static func code(_ rawValue: Int) -> URLErrorCode? { all.first { $0.rawValue == rawValue } }
}
