import ControlProtocol
import DashPilotCore
import Dispatch
import FoundationEssentials
import Store

/// A fleet command the uplink took in and recorded as new: for the owner to run through
/// the daemon's one dispatcher and answer (`CommandLedger.answer`).
public struct AdmittedCommand: Sendable, Hashable {
  public var request: ControlRequest
  /// The request's id (a fleet command's is always a string).
  public var id: String
  public var receivedAt: Date

  public init(request: ControlRequest, id: String, receivedAt: Date) {
    self.request = request
    self.id = id
    self.receivedAt = receivedAt
  }
}

// Taking in the fleet's commands, on the uplink's queue, so that neither a flood nor a
// 1 MiB route ever reaches the daemon's loop unjudged: the intake's verdict (rate, size, the
// one parser, the channel's own rules), then the ledger, through this queue's connection:
// a new id is recorded and handed on; an answered one is answered again from the ledger,
// through the outbox; one still running is left to its first delivery's reply.
extension UplinkService {
  func receivedCommand(_ message: InboundCommand) {
    dispatchPrecondition(condition: .onQueue(queue))
    guard var intake else { return }
    commandTally.receive()
    let decision = intake.judge(message, now: monotonicClock())
    self.intake = intake
    let now = clock()
    switch decision {
    case .refuse(let id, let error, let line):
      if let line { log(UplinkLogLine(.warning, line)) }
      commandTally.note(id: id?.text, command: nil, outcome: error.code.rawValue, at: now)
      // Not recorded: a refusal changed nothing, and a `busy` one is worth sending again.
      if let id { publishDirectly(ControlResponse.failure(id: id, error: error)) }
    case .run(let request, let id):
      let recorded: CommandLedger.Recorded
      do {
        recorded = try outbox.transaction("record a fleet command") { (transaction) throws(StoreError) in
          try ledger.record(
            id: id, command: request.command.name, request: message.payload ?? [], receivedAt: now,
            in: transaction)
        }
      } catch {
        fail("uplink: command \(request.id) could not be recorded, so it was not run: \(error.description)")
        commandTally.note(id: id, command: request.command.name, outcome: "failed", at: now)
        publishDirectly(
          ControlResponse.failure(
            id: request.id, error: ControlError(.failed, "the box could not record the command: \(error.description)")))
        return
      }
      switch recorded {
      case .new:
        commandTally.note(id: id, command: request.command.name, outcome: "running", at: now)
        onCommand?(AdmittedCommand(request: request, id: id, receivedAt: now))
      case .answered(let reply):
        log(UplinkLogLine(.info, "uplink: command \(request.id) was answered before; sending its reply again"))
        sendAgain(reply, at: now)
      case .running:
        log(UplinkLogLine(.info, "uplink: command \(request.id) is already running; its reply will follow"))
      }
    }
  }

  /// A stored reply, queued again: durable, like the first.
  private func sendAgain(_ reply: CommandReply, at now: Date) {
    do {
      try outbox.transaction("queue a command's reply again") { (transaction) throws(StoreError) in
        _ = try outbox.outbox.enqueue(.reply(reply), queuedAt: now, in: transaction)
      }
      pump()
    } catch {
      fail("uplink: the reply to command \(reply.id) could not be queued again: \(error.description)")
    }
  }

  /// A refusal's reply, published at once (QoS 1) rather than queued: nothing was recorded,
  /// so a lost one costs the sender a retry, and a flood of refusals costs no disk.
  private func publishDirectly(_ line: Data) {
    guard let publisher else { return }
    var payload = Array(line)
    if payload.last == 0x0A { payload.removeLast() }
    _ = try? publisher.publish(topic: configuration.topic(.reply), payload: payload, qos: 1, retain: false)
  }
}
