#if canImport(FoundationNetworking)
    public import Foundation
    internal import FoundationNetworking

    extension URLError {
        /// `downloadTaskResumeData`, which Apple's Foundation has and FoundationNetworking lacks: the
        /// resume data of a download that failed or was cancelled, for `download(resumeFrom:)`.
        public var downloadTaskResumeData: Data? {
            self.userInfo[WireError.resumeDataKey] as? Data
        }
    }
#endif
