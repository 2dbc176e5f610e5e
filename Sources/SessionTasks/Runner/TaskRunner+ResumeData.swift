import Foundation
import TransferEngine
import TransferModels
import TransferStore

extension TaskRunner {
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
}

extension TransferStore {
    /// The request of a download made from resume data (its own `originalRequest` is null).
    func resumedRequest(of task: TaskRecord) -> URLRequestSnapshot? {
        task.resumeData.flatMap { resumeData(from: $0, tenant: task.tenant)?.request }
    }
}
