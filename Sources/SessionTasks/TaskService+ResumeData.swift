import Foundation
import TransferEngine
import TransferModels
import TransferStore

extension TaskService {
    public static let resumeDataKey = "NSURLSessionDownloadTaskResumeData"

    /// The resume data of a download that stopped with `partialPath` on disk: nil (and the file removed)
    /// when it cannot be continued — nothing received yet, or no validator to check the bytes against.
    func resumeData(
        of task: TaskRecord, partialPath: String, response: HTTPResponseSnapshot?, request: URLRequestSnapshot?
    ) -> String? {
        var info = stat()
        guard let request, stat(partialPath, &info) == 0, info.st_size > 0,
            let status = response?.statusCode, status == 200 || status == 206,
            let validator = response?.rangeValidator,
            let token = try? store.token(
                for: ResumeData(
                    tenant: task.tenant, sourceTaskId: task.id, request: request, path: partialPath, offset: Int64(info.st_size),
                    validator: validator))
        else {
            unlink(partialPath)
            return nil
        }
        return token
    }

    /// A download task made from resume data continues its partial file: the file becomes this task's
    /// (moved, so two tasks made from one token never share it) and the job asks for the rest. A file
    /// that is gone means starting again from 0.
    func continueFromResumeData(_ task: TaskRecord, job: inout TransferJob) {
        guard let token = task.resumeData, let resume = store.resumeData(from: token, tenant: task.tenant),
            let path = job.downloadPath, rename(resume.path, path) == 0
        else { return }
        var info = stat()
        guard stat(path, &info) == 0, info.st_size > 0 else { return }
        (job.resumeOffset, job.ifRange) = (Int64(info.st_size), resume.validator)
    }

    /// The request of a download made from resume data (its own `originalRequest` is null).
    func resumedRequest(of task: TaskRecord) -> URLRequestSnapshot? {
        task.resumeData.flatMap { store.resumeData(from: $0, tenant: task.tenant)?.request }
    }
}
