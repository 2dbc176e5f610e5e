import Foundation
import Logging
import TransferModels
import TransferStore

extension DeliveryCoordinator {
    /// Reads the next batch of a lane's events into memory. Runs only when the lane has nothing pending
    /// and nothing in flight, so events it skips can move the cursor at once.
    func refill(_ key: LaneKey) async {
        guard let readCursor = lanes[key]?.readCursor else { return }
        do {
            switch key.kind {
            case .delegate:
                let events = try await store.events.events(sessionId: key.sessionId, after: readCursor, limit: configuration.batchSize)
                guard var lane = lanes[key] else { return }
                for event in events { queueDelegateEvent(event, in: &lane) }
                lane.mayHaveMore = events.count == configuration.batchSize
                lanes[key] = lane
            case .completion:
                let deliveries = try await store.deliveries.pendingCompletions(
                    sessionId: key.sessionId, after: readCursor, limit: configuration.batchSize)
                guard var lane = lanes[key] else { return }
                for delivery in deliveries { queueCompletion(delivery, in: &lane) }
                lane.mayHaveMore = deliveries.count == configuration.batchSize
                // A head that failed before a restart keeps its retry time.
                if lane.retryAt == nil, let next = lane.pending.first?.event.nextAttemptAt, next.timeIntervalSinceNow > 0 {
                    lane.retryAt = .now + .seconds(next.timeIntervalSinceNow)
                }
                lanes[key] = lane
            }
        } catch {
            logger.error(
                "Reading events to deliver failed",
                metadata: ["session.id": "\(key.sessionId)", "error": "\(String(reflecting: error))"])
            lanes[key]?.retryAt = .now + .seconds(1)
        }
    }

    private func queueDelegateEvent(_ event: EventRecord, in lane: inout DeliveryLane) {
        lane.readCursor = event.sequence
        guard let delegate = lane.delegate, let url = delegate.url, lane.delegateReceives(event.type) else {
            // Not for this delegate: done once everything before it is. (A delegate in the client has no
            // lane: `delegateQueue` gives none.)
            if let last = lane.pending.indices.last {
                lane.pending[last].cursorAfter = event.sequence
            } else {
                writes.outcomes.cursors[lane.key.sessionId] = max(writes.outcomes.cursors[lane.key.sessionId] ?? 0, event.sequence)
            }
            return
        }
        let isDecision = lane.delegateDecides(event.type)
        lane.pending.append(
            PendingDelivery(
                event: event, url: url, signer: lane.signer, attempts: event.deliveryAttempts,
                cursorAfter: event.sequence, isDecision: isDecision,
                timeout: isDecision ? min(configuration.timeout, delegate.decisionTimeout) : configuration.timeout))
    }

    private func queueCompletion(_ delivery: CompletionDelivery, in lane: inout DeliveryLane) {
        lane.readCursor = delivery.event.sequence
        guard let url = delivery.url else {
            writes.outcomes.abandoned[delivery.event.id] = Date()
            metrics.failedEvent(reason: "undeliverable")
            return
        }
        if delivery.key == nil {
            // Neither the task nor its session has a secret: sent unsigned rather than never (documented).
            logger.debug("Completion webhook without a secret: sent unsigned", metadata: ["webhook.id": "\(delivery.event.id)"])
        }
        lane.pending.append(
            PendingDelivery(
                event: delivery.event, url: url, signer: delivery.key.map(WebhookSigner.init(key:)),
                attempts: delivery.event.deliveryAttempts, cursorAfter: delivery.event.sequence, isDecision: false,
                timeout: configuration.timeout))
    }

    /// POSTs the lane's head and, as a chain behind it, the events after it (`WebhookChain`). The
    /// signatures' timestamp is the time they are signed; ids and bodies never change.
    func send(_ key: LaneKey) {
        // The lane is taken out of the dictionary while it changes: a copy of it beside the dictionary's
        // would make the write of its head copy all of its read-ahead events, for every POST.
        guard lanes[key]?.inFlightToken == nil, lanes[key]?.pending.isEmpty == false, var lane = lanes.removeValue(forKey: key)
        else { return }
        let timestamp = Int64(Date().timeIntervalSince1970)
        let end = min(lane.pending.endIndex, lane.pending.startIndex + configuration.chainLength)
        var requests: [WebhookRequest] = []
        requests.reserveCapacity(end - lane.pending.startIndex)
        for index in lane.pending.startIndex..<end {
            let body = lane.pending[index].body ?? WebhookPayload.body(of: lane.pending[index].event)
            lane.pending[index].body = body
            let delivery = lane.pending[index]
            var headers = ["Content-Type: application/json", "User-Agent: urlsessiond", "Expect:"]
            if let signer = delivery.signer {
                headers += signer.headers(id: delivery.event.id, timestamp: timestamp, body: body).map { "\($0.name): \($0.value)" }
            } else {
                headers += ["webhook-id: \(delivery.event.id)", "webhook-timestamp: \(timestamp)"]
            }
            requests.append(WebhookRequest(url: delivery.url, headers: headers, body: body, timeout: delivery.timeout))
        }
        let token = inFlight.open(key, tenant: lane.tenant)
        lane.inFlightToken = token
        lanes[key] = lane
        loop.send(WebhookChain(token: token, requests: requests, signedAt: .now))
    }

    /// Sends nothing more of the lane's chain after the POST in flight: its events are read or addressed
    /// anew.
    func endChain(of key: LaneKey) {
        if let token = lanes[key]?.inFlightToken { loop.endChain(token) }
    }

    /// A 2xx acknowledges; 410 disables the delegate URL (or gives up a completion event); a decision
    /// gets one attempt; anything else is retried on the schedule, or when `Retry-After` says.
    /// While the lane's chain goes on, its next POST is in flight already and the lane stays in its slot.
    func handleResponse(_ response: WebhookResponse) {
        let post = response.chainGoesOn ? inFlight.owner(of: response.token) : inFlight.close(response.token)
        guard let (key, _) = post else { return }
        // Taken out while it changes (as in `send`): taking its head must not copy its read-ahead events.
        guard lanes[key]?.inFlightToken == response.token, lanes[key]?.pending.isEmpty == false,
            var lane = lanes.removeValue(forKey: key)
        else { return }
        let head = lane.pending[lane.pending.startIndex]
        if !response.chainGoesOn { lane.inFlightToken = nil }
        lane.lastActive = .now
        let now = Date()
        let id = head.event.id
        if key.kind == .delegate { noteDelegateHealth(response, sessionId: key.sessionId, at: now) }
        if response.isAcknowledged {
            writes.outcomes.delivered[id] = now
            metrics.deliveredEvent(timestamp: head.event.timestamp, at: now)
            if head.isDecision { waiters.deliver(.answered(response.body), eventId: id, sessionId: key.sessionId) }
            finishHead(of: &lane)
        } else if response.status == 410 {
            if head.isDecision { waiters.deliver(.noAnswer, eventId: id, sessionId: key.sessionId) }
            metrics.failedEvent(reason: "gone")
            if key.kind == .delegate {
                writes.outcomes.disabled[key.sessionId] = now
                marks.disabled.insert(key.sessionId)
                logger.notice("The delegate URL answered 410 Gone: webhooks to it stop", metadata: ["session.id": "\(key.sessionId)"])
                lanes[key] = nil
                waiting.sleeping[key] = nil
                return
            }
            writes.outcomes.abandoned[id] = now
            finishHead(of: &lane)
        } else if head.isDecision {
            // The transfer proceeds with default handling now; a late answer would be useless.
            waiters.deliver(.noAnswer, eventId: id, sessionId: key.sessionId)
            writes.outcomes.abandoned[id] = now
            metrics.failedEvent(reason: "decision")
            finishHead(of: &lane)
        } else if key.kind == .delegate && lane.waitsForReattach {
            // `sessionSendsLaunchEvents = false`: an unreachable client is not woken up by retries; its
            // events wait (still readable) until it re-attaches, which opens the queue again.
            writes.outcomes.failures.append(DeliveryOutcomes.Failure(eventId: id, nextAttemptAt: now))
            writes.outcomes.held[key.sessionId] = now
            marks.held.insert(key.sessionId)
            metrics.failedEvent(reason: "held")
            logger.info(
                "The delegate could not be reached: events wait for the client to re-attach",
                metadata: ["session.id": "\(key.sessionId)", "http.status": "\(response.status)"])
            lanes[key] = nil
            waiting.sleeping[key] = nil
            return
        } else {
            scheduleRetry(of: &lane, after: response, now: now)
        }
        lanes[key] = lane
        advance(key)
    }

    /// What an answer of the delegate says about its health, written with the batch. Completion lanes
    /// post to their tasks' own URLs: their answers say nothing about the delegate.
    private func noteDelegateHealth(_ response: WebhookResponse, sessionId: String, at now: Date) {
        if response.isAcknowledged {
            writes.outcomes.delegateHealth[sessionId, default: DelegateHealthChange()].delivered(at: now)
        } else {
            let reason = DeliveryFailureReason.of(response)
            writes.outcomes.delegateHealth[sessionId, default: DelegateHealthChange()].failed(at: now, reason: reason)
        }
    }

    private func finishHead(of lane: inout DeliveryLane) {
        guard let head = lane.pending.popFirst() else { return }
        guard lane.key.kind == .delegate else { return }
        let session = lane.key.sessionId
        writes.outcomes.cursors[session] = max(writes.outcomes.cursors[session] ?? 0, head.cursorAfter)
        if lane.retryPersisted {
            writes.outcomes.delegateRetry[session] = .now
            lane.retryPersisted = false
        }
    }

    private func scheduleRetry(of lane: inout DeliveryLane, after response: WebhookResponse, now: Date) {
        let start = lane.pending.startIndex
        lane.pending[start].attempts += 1
        let head = lane.pending[start]
        let retryAfter = response.status > 0 ? response.retryAfter.flatMap { RetryPolicy.retryAfterSeconds($0, now: now) } : nil
        let delay = configuration.retryPolicy.delay(afterAttempt: head.attempts, retryAfter: retryAfter)
        let next = now.addingTimeInterval(delay)
        writes.outcomes.failures.append(DeliveryOutcomes.Failure(eventId: head.event.id, nextAttemptAt: next))
        if lane.key.kind == .delegate {
            writes.outcomes.delegateRetry[lane.key.sessionId] = .at(next)
            lane.retryPersisted = true
        }
        lane.retryAt = .now + .seconds(delay)
        metrics.retriedAttempt()
        if delay > 1 {
            // A long wait keeps only the head in memory; the rest is read again when it is over.
            lane.pending = lane.pending.prefix(1)
            lane.readCursor = lane.key.kind == .delegate ? head.cursorAfter : head.event.sequence
            lane.mayHaveMore = true
        }
        var metadata: Logger.Metadata = [
            "session.id": "\(lane.key.sessionId)", "webhook.id": "\(head.event.id)", "webhook.attempt": "\(head.attempts)",
            "http.status": "\(response.status)", "retry.seconds": "\(delay)",
        ]
        if response.status == 0 {
            metadata["curl.code"] = "\(response.curlCode)"
            metadata["error"] = "\(response.failure ?? "")"
        }
        if response.deniedByEgressPolicy {
            logger.warning("A webhook destination is refused by the egress policy (URLSESSIOND_EGRESS_ALLOW)", metadata: metadata)
        } else {
            logger.debug("Webhook delivery failed; will retry", metadata: metadata)
        }
    }
}
