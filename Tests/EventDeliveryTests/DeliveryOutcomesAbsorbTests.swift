import Foundation
import Testing
import TransferModels
import TransferStore

@testable import EventDelivery

/// A batch of outcomes whose write failed is taken back under what was learned since.
@Suite("Delivery outcomes: a failed write taken back")
struct DeliveryOutcomesAbsorbTests {
    static let t0 = Date(timeIntervalSince1970: 1_800_000_000)

    @Test func holdsAndHealthAreTakenBack() {
        var older = DeliveryOutcomes()
        older.held["ses_held"] = Self.t0
        older.delegateHealth["ses_a", default: DelegateHealthChange()].failed(at: Self.t0, reason: "HTTP 500")
        older.delegateHealth["ses_b", default: DelegateHealthChange()].failed(at: Self.t0, reason: "HTTP 500")

        var newer = DeliveryOutcomes()
        newer.delegateHealth["ses_a", default: DelegateHealthChange()].failed(at: Self.t0 + 1, reason: "timed out")
        newer.delegateHealth["ses_b", default: DelegateHealthChange()].delivered(at: Self.t0 + 1)
        newer.absorb(older: older)

        #expect(newer.held["ses_held"] == Self.t0, "the hold is written with the next batch")
        #expect(newer.delegateHealth["ses_a"]?.failures == 2 && newer.delegateHealth["ses_a"]?.lastFailure?.reason == "timed out")
        #expect(newer.delegateHealth["ses_b"]?.failures == 0 && newer.delegateHealth["ses_b"]?.deliveredAt == Self.t0 + 1)
    }
}
