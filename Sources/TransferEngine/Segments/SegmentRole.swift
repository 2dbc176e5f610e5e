import Foundation

/// A transfer's part in a segmented download (Segments/): the primary (the job's own transfer) owns the
/// download, part connections fetch ranges of it. Also what the transfer's range requests measured, which
/// sizes its next one.
struct SegmentRole {
    /// The primary's segmented download, once a response allowed one.
    var segmented: SegmentedDownload?
    /// The download this part connection fetches ranges of.
    weak var partOf: SegmentedDownload?
    /// 0 for the job's own transfer; 1, 2… for the part connections of its segmented download.
    var connectionNumber = 0
    /// The representation changed under the download this many times in this attempt: it started again
    /// from 0, segmented the first time, on one connection after that.
    private(set) var validatorChanges = 0
    /// Body bytes of the current range request.
    var requestBytes: Int64 = 0
    /// The rate of the last range request (the next one's size).
    private(set) var rate: Double?
    /// Seconds from the last range request leaving to its first byte back.
    private(set) var roundTrip: Double?
    /// Told when this transfer's download becomes segmented (the scheduler opens part connections).
    var began: ((Transfer) -> Void)?

    /// The segmented download this transfer works for (as its primary, or as a part connection).
    var download: SegmentedDownload? { segmented ?? partOf }

    /// The role of part connection `number` of `download`.
    init(partOf download: SegmentedDownload, number: Int) {
        (partOf, connectionNumber) = (download, number)
    }

    init() {}

    /// A range request ended after `seconds`, with `timing`: its rate and round trip size the next one.
    mutating func requestEnded(_ timing: TransactionTiming, seconds: Double) {
        if requestBytes > 0, seconds > 0 { rate = Double(requestBytes) / seconds }
        // From the request leaving to the first byte of the answer: the round trip a request costs.
        if timing.startTransfer > timing.preTransfer { roundTrip = timing.startTransfer - timing.preTransfer }
    }

    /// The download starts again from 0 on the primary alone; segmented again only after a first change
    /// of validator (`segmentedAgain`), so an origin whose representation keeps changing gets one connection.
    mutating func startAgainFromZero(segmentedAgain: Bool) {
        segmented = nil
        validatorChanges = segmentedAgain ? validatorChanges + 1 : 2
    }
}
