import Foundation
import TransferEngine
import TransferModels
import TransferStore

extension TaskService {
    public static let resumeDataKey = "NSURLSessionDownloadTaskResumeData"

    /// The resume data of a download that stopped with `partialPath` on disk: nil (and the file removed)
    /// when it cannot be continued — nothing received yet, or no validator to check the bytes against.
    /// A segmented file's resume data continues it segmented: its journal stays beside it (the token's
    /// offset is what the journal counted when the token was made; its last checkpoint may add to it).
    func resumeData(
        of task: TaskRecord, partialPath: String, response: HTTPResponseSnapshot?, request: URLRequestSnapshot?
    ) -> String? {
        var info = stat()
        let segmented = TaskFiles.segmentedResume(ofPartial: partialPath)
        guard let request, stat(partialPath, &info) == 0, info.st_size > 0, !segmented.isSegmented || segmented.resume != nil,
            let status = response?.statusCode, status == 200 || status == 206,
            let validator = segmented.resume?.validator ?? response?.rangeValidator,
            let token = try? store.token(
                for: ResumeData(
                    tenant: task.tenant, sourceTaskId: task.id, request: request, path: partialPath,
                    offset: segmented.resume?.receivedBytes ?? Int64(info.st_size), validator: validator))
        else {
            TaskFiles.removePartialFile(partialPath)
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
        SegmentJournal.move(from: resume.path, to: path)
        let segmented = TaskFiles.segmentedResume(ofPartial: path)
        if segmented.isSegmented {
            // Continued part by part; a damaged journal leaves nothing that can be continued.
            if let segments = segmented.resume { job.resumeSegments = segments } else { TaskFiles.removePartialFile(path) }
            return
        }
        var info = stat()
        guard stat(path, &info) == 0, info.st_size > 0 else { return }
        (job.resumeOffset, job.ifRange) = (Int64(info.st_size), resume.validator)
    }

    /// The request of a download made from resume data (its own `originalRequest` is null).
    func resumedRequest(of task: TaskRecord) -> URLRequestSnapshot? {
        task.resumeData.flatMap { store.resumeData(from: $0, tenant: task.tenant)?.request }
    }
}
