import Foundation
public import TransferModels

extension SessionStore {
    /// Applies a `PATCH /v1/sessions/{id}`; nil when the session does not exist or is another tenant's.
    ///
    /// A new delegate takes the events not delivered yet, those already queued for the old address
    /// included: the queue's cursor stays, and its retry time, hold and 410 are the old address's, so
    /// they go (see `replaceDelegate`).
    public func updateSession(id: String, tenant: String, update: SessionUpdate) async throws -> SessionUpdateOutcome? {
        var generated: String?
        if case .replaced(_, secret: nil) = update.delegate { generated = WebhookSecret.generate() }
        let sealedGenerated = try generated.map { try secrets.seal(Data($0.utf8)) }
        let sealedGiven: Data?
        if case .replaced(_, let secret?) = update.delegate { sealedGiven = try secrets.seal(Data(secret.utf8)) } else { sealedGiven = nil }
        let outcome: (SessionRecord, usedGenerated: Bool, delegateChanged: Bool)? = try await database.write { db in
            guard
                var session = try db.row("SELECT * FROM session WHERE id = ? AND tenant = ?" + db.forUpdate, id, tenant)?.decode(
                    SessionRecord.self)
            else { return nil }
            var usedGenerated = false
            var delegateChanged = false
            switch update.delegate {
            case .unchanged: break
            case .removed:
                delegateChanged = session.delegate != nil
                try Self.replaceDelegate(db, session: &session, with: nil, sealedSecret: nil)
            case .replaced(let delegate, _) where !delegate.isWebhook:
                // A delegate in the client: no secret (its old one goes with its url).
                delegateChanged = true
                try Self.replaceDelegate(db, session: &session, with: delegate, sealedSecret: nil)
            case .replaced(let delegate, _):
                // No secret given: the stored one stays; a session that had none (no delegate, or one in
                // the client) gets the generated one.
                let secret = sealedGiven ?? session.delegateSecret ?? sealedGenerated
                usedGenerated = sealedGiven == nil && session.delegateSecret == nil
                delegateChanged = true
                try Self.replaceDelegate(db, session: &session, with: delegate, sealedSecret: secret)
            }
            switch update.sessionDescription {
            case .absent: break
            case .null: session.sessionDescription = nil
            case .value(let description): session.sessionDescription = description
            }
            try db.update(session, in: "session", key: "id", only: ["sessionDescription"])
            db.notify(.sessions, session.id)
            return (session, usedGenerated, delegateChanged)
        }
        guard let (stored, usedGenerated, delegateChanged) = outcome else { return nil }
        let record = try requestSecrets.opened(stored)
        cache(record)
        if delegateChanged { deliveries.delegateChanges.publish(id) }
        return SessionUpdateOutcome(record: record, generatedSecret: usedGenerated ? generated : nil)
    }

    /// Points the session's delegate queue at `delegate` (nil: none) signed with `sealedSecret`. The
    /// queue keeps its cursor, so undelivered events go to the new address; what the dispatcher learned
    /// about the old one (its retry time, a hold, a 410) and the events' attempt counts start afresh.
    static func replaceDelegate(
        _ db: any StoreConnection, session: inout SessionRecord, with delegate: DelegateConfiguration?, sealedSecret: Data?
    ) throws {
        session.delegate = delegate
        session.delegateSecret = delegate?.isWebhook == true ? sealedSecret : nil
        try db.update(session, in: "session", key: "id", only: ["delegate", "delegateSecret"])
        db.notify(.sessions, session.id)
        try DeliveryStore.restartDelegateQueue(db, sessionId: session.id)
    }
}
