import ControlProtocol
import DashPilotCore
import FoundationEssentials
import Store
import Uplink

#if canImport(Glibc)
  import Glibc
#endif

/// Runs the fleet's commands on the loop, through the daemon's one dispatcher
/// (`DaemonContext.dispatch`), exactly as the control socket's requests are run, and
/// records each answer so that the command takes effect once.
///
/// A command runs inside one store transaction. A component that answers at once (a shift
/// started or ended, a route loaded) writes its effect in that transaction (the store's
/// writes join it as savepoints), and the answer is recorded in the ledger and queued in
/// the outbox inside it too: the effect, the reply and the record that it was answered
/// commit together or not at all. A component that answers later (`navigate` waits for the
/// routing engine) has no effect in the store; its answer is recorded and queued in a
/// transaction of its own when it comes. A command the uplink's queue recorded but that
/// was never answered (the daemon was killed while it ran) is run again at the next start.
final class FleetCommandChannel {
  private let context: DaemonContext
  private let store: SampleStore
  private let outbox: Outbox
  private let configuration: UplinkConfiguration
  private let ledger = CommandLedger()
  /// Called after a reply was queued (and committed), to wake the drain.
  private let queued: () -> Void
  /// Ids run and not answered yet.
  private var running: Set<String> = []
  /// The command whose transaction is open: an answer given now joins it.
  private var inTransaction: String?
  /// Why recording an answer given inside the command's transaction failed: the
  /// transaction is rolled back with the effect.
  private var answerFailure: StoreError?
  /// Answers, for `status`.
  private(set) var tally = CommandTally()
  /// When (wall clock) the ledger was last pruned.
  private var lastPruned: Date?
  /// A test seam: the command name after whose committed answer the daemon kills itself
  /// (`DASHPILOTD_TEST_KILL_AFTER_COMMAND`), between the effect and the reply's publication.
  private let killAfter: String?

  init(
    context: DaemonContext, store: SampleStore, outbox: Outbox, configuration: UplinkConfiguration,
    queued: @escaping () -> Void
  ) {
    self.context = context
    self.store = store
    self.outbox = outbox
    self.configuration = configuration
    self.queued = queued
    killAfter = Self.testKillPoint()
  }

  /// Runs `admitted` unless it is running already.
  func run(_ admitted: AdmittedCommand) {
    let command = AdmittedFleetCommand(id: admitted.id, kind: admitted.request.command.kind)
    guard running.insert(command.id).inserted else { return }
    let responder = Responder(channel: FleetReplyChannel(command: command, owner: self), conversation: 0)
    inTransaction = command.id
    do {
      try store.transaction("run the fleet command \(command.id)") { (_) throws(StoreError) in
        context.dispatch(admitted.request, to: responder)
        if let failure = answerFailure {
          answerFailure = nil
          throw failure
        }
      }
    } catch {
      inTransaction = nil
      running.remove(command.id)
      context.logger.error(
        "uplink: the fleet command \(admitted.request.id) (\(command.kind.rawValue)) could not be committed, so it "
          + "is not answered; it runs again when the daemon next starts: \(error)", fields: LogFields(reason: "uplink"))
      return
    }
    inTransaction = nil
    if responder.isAnswered { finished(command) }
  }

  /// The answer to a command `run` started, now or later.
  func answered(_ command: AdmittedFleetCommand, _ answer: ControlAnswer) {
    let reply: CommandReply
    switch answer {
    case .success(let result): reply = CommandReply(id: command.id, answer: .success(result))
    case .failure(let error): reply = CommandReply(id: command.id, answer: .failure(error))
    }
    let now = context.clock.now().wall
    do {
      try store.transaction("answer the fleet command \(command.id)") { (transaction) throws(StoreError) in
        try ledger.answer(reply, at: now, in: transaction)
        _ = try outbox.enqueue(.reply(reply), queuedAt: now, in: transaction)
      }
    } catch {
      if inTransaction == command.id {
        answerFailure = error
      } else {
        running.remove(command.id)
        context.logger.error(
          "uplink: the answer to fleet command \"\(command.id)\" could not be recorded; it runs again when the "
            + "daemon next starts: \(error)", fields: LogFields(reason: "uplink"))
      }
      return
    }
    tally.note(id: command.id, command: command.kind.rawValue, outcome: reply.outcome, at: now)
    if inTransaction != command.id { finished(command) }
  }

  /// The answer is committed: wake the drain (and, under test, die before it publishes).
  private func finished(_ command: AdmittedFleetCommand) {
    running.remove(command.id)
    if killAfter == command.kind.rawValue { kill(getpid(), SIGKILL) }
    queued()
  }

  /// Runs again what a previous process recorded and never answered, oldest first, with
  /// the rules of today's configuration (its allowed commands; expiry judged now).
  func runUnanswered() {
    let rows: [(id: String, request: [UInt8])]
    do {
      rows = try store.read { (transaction) throws(StoreError) in try ledger.unanswered(in: transaction) }
    } catch {
      context.logger.error(
        "uplink: the unanswered fleet commands could not be read: \(error)", fields: LogFields(reason: "uplink"))
      return
    }
    guard !rows.isEmpty else { return }
    context.logger.notice(
      "uplink: running again \(rows.count) fleet command\(rows.count == 1 ? "" : "s") received before the daemon "
        + "last stopped and never answered", fields: LogFields(reason: "uplink"))
    let now = context.clock.now().wall
    for row in rows {
      let parsed = RequestParser.parse(
        row.request, limit: ControlProtocolLimits.maximumCommandSize, tooLong: .tooLarge)
      let command = AdmittedFleetCommand(id: row.id, kind: (try? parsed.get())?.command.kind ?? .status)
      switch parsed {
      case .success(let request) where configuration.allowedCommands.contains(request.command.kind):
        run(AdmittedCommand(request: request, id: row.id, receivedAt: now))
      case .success(let request):
        answered(
          command,
          .failure(ControlError(.notAllowed, "\(request.command.name) is no longer taken over MQTT on this box")))
      case .failure(let failure):
        answered(command, .failure(failure.error))
      }
    }
  }

  /// Forgets answered ids past the ledger's retention, at most once an hour.
  func pruneIfDue(now: Date) {
    if let lastPruned, abs(now.timeIntervalSince(lastPruned)) < 3600 { return }
    lastPruned = now
    do {
      try store.transaction("forget old fleet commands") { (transaction) throws(StoreError) in
        _ = try ledger.prune(now: now, in: transaction)
      }
    } catch {
      context.logger.warning("uplink: old fleet commands could not be forgotten: \(error)")
    }
  }

  private static func testKillPoint() -> String? {
    #if DEBUG
      return getenv("DASHPILOTD_TEST_KILL_AFTER_COMMAND").map { String(cString: $0) }
    #else
      return nil
    #endif
  }
}
