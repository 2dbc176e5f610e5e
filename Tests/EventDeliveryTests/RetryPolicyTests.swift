import EventDelivery
import Foundation
import Testing
import TransferModels
import TransferStore

@Suite("RetryPolicy, Retry-After and the webhook body")
struct RetryPolicyTests {
    @Test(arguments: [
        (1, 0.5, 5.0), (2, 0.5, 300.0), (9, 0.5, 86400.0), (10, 0.5, 86400.0), (100, 0.5, 86400.0),
        (1, 0.0, 4.0), (1, 1.0, 6.0), (0, 0.5, 5.0),
    ])
    func followsTheStandardScheduleWithJitter(attempt: Int, unit: Double, expected: Double) {
        let delay = RetryPolicy().delay(afterAttempt: attempt, retryAfter: nil, unit: unit)
        #expect(abs(delay - expected) < 1e-9)
    }

    @Test func retryAfterReplacesTheScheduleWithinBounds() {
        let policy = RetryPolicy(schedule: [0.2, 0.5])
        #expect(policy.delay(afterAttempt: 1, retryAfter: 7, unit: 0.9) == 7)
        #expect(policy.delay(afterAttempt: 1, retryAfter: 1e9, unit: 0.9) == 86400)
    }

    /// `Retry-After: 0` or a date already past is not "at once": the schedule's next interval applies.
    @Test func retryAfterZeroOrPastIsTheSchedulesInterval() {
        let policy = RetryPolicy(schedule: [5, 300], jitter: 0)
        #expect(policy.delay(afterAttempt: 1, retryAfter: 0, unit: 0.5) == 5)
        #expect(policy.delay(afterAttempt: 2, retryAfter: -3, unit: 0.5) == 300)
        let now = Date(timeIntervalSince1970: 784_111_897)
        let past = RetryPolicy.retryAfterSeconds("Sat, 05 Nov 1994 08:49:37 GMT", now: now)
        #expect(policy.delay(afterAttempt: 1, retryAfter: past, unit: 0.5) == 5)
    }

    @Test func parsesSchedules() {
        #expect(RetryPolicy.parseSchedule("5,300,1800") == [5, 300, 1800])
        #expect(RetryPolicy.parseSchedule(" 0.2, 0.2 ,0.5") == [0.2, 0.2, 0.5])
        for bad in ["", ",", "5,,6", "-1", "abc", "inf", "nan", "700000"] {
            #expect(RetryPolicy.parseSchedule(bad) == nil, "\(bad)")
        }
    }

    @Test func parsesRetryAfterSecondsAndHTTPDates() {
        let now = Date(timeIntervalSince1970: 784_111_777)  // Sun, 06 Nov 1994 08:49:37 GMT
        #expect(RetryPolicy.retryAfterSeconds("120", now: now) == 120)
        #expect(RetryPolicy.retryAfterSeconds("Sun, 06 Nov 1994 08:51:37 GMT", now: now) == 120)
        #expect(RetryPolicy.retryAfterSeconds("Sunday, 06-Nov-94 08:50:37 GMT", now: now) == 60)
        #expect(RetryPolicy.retryAfterSeconds("Sun Nov  6 08:49:47 1994", now: now) == 10)
        #expect(RetryPolicy.retryAfterSeconds("Sat, 05 Nov 1994 08:49:37 GMT", now: now) == 0, "a past date: now")
        #expect(RetryPolicy.retryAfterSeconds("soon", now: now) == nil)
        #expect(RetryPolicy.retryAfterSeconds("1.5", now: now) == nil)
    }

    @Test func theBodyIsTheEventAsTheAPIShowsIt() throws {
        var event = EventRecord(
            id: "evt_1", sessionId: "ses_1", sequence: 17, taskId: "tsk_1", type: .downloadTaskDidFinishDownloadingTo,
            timestamp: Date(timeIntervalSince1970: 1_700_000_000.123), data: #"{"location":"/v1/tasks/tsk_1/file"}"#)
        #expect(
            String(decoding: WebhookPayload.body(of: event), as: UTF8.self) == """
                {"data":{"location":"/v1/tasks/tsk_1/file"},"id":"evt_1","sequence":17,"sessionId":"ses_1",\
                "taskId":"tsk_1","timestamp":"2023-11-14T22:13:20.123Z","type":"downloadTask.didFinishDownloadingTo"}
                """)
        event.taskId = nil
        event.id = "evt_\"\\\n"
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(WebhookPayload.body(of: event))) as? [String: Any])
        #expect(object["taskId"] is NSNull)
        #expect(object["id"] as? String == "evt_\"\\\n")
    }
}
