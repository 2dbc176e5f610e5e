import Foundation
import Logging

/// Every transfer, API connection, webhook and kept file holds a descriptor: the soft `RLIMIT_NOFILE`
/// (often 1,024) is raised to the hard limit at start-up, and what was got is logged.
enum FileDescriptorLimit {
    static func raise(logger: Logger) {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else {
            logger.warning("Could not read the file descriptor limit", metadata: ["errno": "\(errno)"])
            return
        }
        let before = limit.rlim_cur
        if limit.rlim_cur < limit.rlim_max {
            var raised = limit
            raised.rlim_cur = limit.rlim_max
            if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) == 0 {
                limit = raised
            } else {
                logger.warning(
                    "Could not raise the file descriptor limit",
                    metadata: ["soft": "\(before)", "hard": "\(limit.rlim_max)", "errno": "\(errno)"])
            }
        }
        logger.info(
            "File descriptor limit", metadata: ["soft": "\(limit.rlim_cur)", "hard": "\(limit.rlim_max)", "before": "\(before)"])
    }
}
