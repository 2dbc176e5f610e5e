import Foundation
import Logging
import TransferModels
import TransferStore

/// Control calls across nodes. Only the node running a task can stop or start its transfer: a `resume`,
/// `suspend` or `cancel` made on another node is forwarded to it through the database, carried out there
/// as if made there, and answered; the caller then reads the task's row. Completions on one node wake the
/// `?wait=` long-polls of the others; answers to decision events reach the node whose transfer waits.
extension ClusterNode {
    /// How long a forwarded call waits for the running node's answer before the caller is told to try
    /// that node itself (`TaskOwnedElsewhere`).
    static let forwardingTimeout: Duration = .seconds(10)

    /// Asks `node` to carry out `action` and returns the task as its answer left it.
    func forward(
        _ action: ForwardedControl.Action, of task: TaskRecord, tenant: String, to node: String
    ) async throws -> TaskRecord {
        let answer = try await send(action, of: task, tenant: tenant, to: node)
        switch answer?.outcome {
        case .done?: return try await tasks.requireTask(task.id, tenant: tenant)
        case .invalidState?: throw TaskStoreError.invalidStateTransition
        case .notFound?: throw TaskStoreError.taskNotFound
        case .failed?:
            logger.warning(
                "A control call forwarded to another node failed there",
                metadata: ["task.id": "\(task.id)", "node": "\(node)", "detail": "\(answer?.detail ?? "")"])
            throw TaskOwnedElsewhere(node: node)
        case .notHere?, nil:
            throw TaskOwnedElsewhere(node: node)
        }
    }

    /// Asks `node`, which runs the task, to hand the limit just stored to its transfer. Its answer is
    /// awaited (so the PATCH's answer follows the change, as on one node) but not required: the limit is
    /// stored, and the attempt's next start takes it.
    func forwardRateLimit(of task: TaskRecord, tenant: String, to node: String) async {
        let answer: ForwardedControlAnswer?
        do {
            answer = try await send(.applyRateLimit, of: task, tenant: tenant, to: node)
        } catch {
            return logger.warning(
                "Forwarding a task's new rate limit failed", metadata: ["task.id": "\(task.id)", "node": "\(node)", "error": "\(error)"])
        }
        if answer?.outcome != .done {
            logger.notice(
                "The node running a task did not take its new rate limit: its next attempt will",
                metadata: ["task.id": "\(task.id)", "node": "\(node)", "outcome": "\(answer?.outcome.rawValue ?? "no answer")"])
        }
    }

    /// Sends `action` to `node` and waits for its answer: nil when none came within `forwardingTimeout`.
    private func send(
        _ action: ForwardedControl.Action, of task: TaskRecord, tenant: String, to node: String
    ) async throws -> ForwardedControlAnswer? {
        let control = ForwardedControl(
            request: ResourceID.make(prefix: "ctl"), node: node, task: task.id, tenant: tenant, action: action)
        // Subscribed before sending: the answer cannot come before the stream exists.
        let answers = store.cluster.forwardedControlAnswers.subscribe()
        try await store.cluster.forward(control)
        return await firstReply(ForwardedControlAnswer.self, on: answers, within: Self.forwardingTimeout) {
            $0.request == control.request
        }
    }

    /// Carries out the calls other nodes forward to this one, takes the answers to decision events they
    /// offer, and wakes `?wait=` long-polls on tasks the others complete, until cancelled.
    func serveOtherNodes() async {
        await withDiscardingTaskGroup { group in
            group.addTask {
                for await taskId in self.store.tasks.completionsElsewhere.subscribe() {
                    self.tasks.waiters.completions.completed(taskId)
                    self.tasks.waiters.bodies.completed(taskId)
                }
            }
            group.addTask {
                await withDiscardingTaskGroup { offers in
                    for await payload in self.store.cluster.offeredDecisionAnswers.subscribe() {
                        offers.addTask { await self.takeOffered(payload) }
                    }
                }
            }
            group.addTask {
                // Webhooks' answers that no transfer here waits for, sent on to the node running the task.
                let (answers, continuation) = AsyncStream.makeStream(
                    of: WebhookDecisionAnswer.self, bufferingPolicy: .bufferingNewest(1024))
                self.tasks.questions.decisions.forwardAnswersNotAwaitedHere { continuation.yield($0) }
                await withDiscardingTaskGroup { offers in
                    for await answer in answers { offers.addTask { await self.offerWebhookAnswer(answer) } }
                }
            }
            group.addTask {
                await withDiscardingTaskGroup { calls in
                    for await payload in self.store.cluster.forwardedControls.subscribe() {
                        guard let control = try? JSONDecoder().decode(ForwardedControl.self, from: Data(payload.utf8)),
                            control.node == self.membership.nodeID
                        else { continue }
                        calls.addTask { await self.carryOut(control) }
                    }
                }
            }
        }
    }

    /// A call another node forwarded: carried out here as if made here (never forwarded again), and
    /// answered. A cancel producing resume data is answered once the task has completed with it, as the
    /// API answers one made here.
    private func carryOut(_ control: ForwardedControl) async {
        var answer = ForwardedControlAnswer(request: control.request, outcome: .done)
        do {
            let record = try await tasks.admittedTask(for: control.action, taskId: control.task, tenant: control.tenant)
            // A new limit moves no ownership: only the calls that start or stop a transfer claim the task.
            let claimed = control.action == .applyRateLimit ? record : try await claimForControl(record)
            let task = try await tasks.perform(control.action, on: claimed)
            if control.action == .cancelProducingResumeData, task.state != .completed {
                _ = try await tasks.waitForCompletion(of: task.id, tenant: control.tenant, timeout: .seconds(10))
            }
        } catch let error as TaskStoreError where error == .invalidStateTransition {
            answer.outcome = .invalidState
        } catch let error as TaskStoreError where error == .taskNotFound {
            answer.outcome = .notFound
        } catch is TaskOwnedElsewhere {
            answer.outcome = .notHere
        } catch {
            answer.outcome = .failed
            answer.detail = "\(error)"
        }
        do {
            try await store.cluster.answer(answer)
        } catch {
            logger.warning("Answering a forwarded control call failed", metadata: ["task.id": "\(control.task)", "error": "\(error)"])
        }
    }
}
