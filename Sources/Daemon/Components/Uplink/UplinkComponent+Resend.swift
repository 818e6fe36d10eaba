import ControlProtocol
import DashPilotCore
import FoundationEssentials
import Store
import Uplink

// `shift.resend`: the office missed part of a shift (the outbox dropped its oldest entries
// while the box was offline past `OutboxBound`) and asks for it again. The shift is read as
// `shift show` reads it (`ShiftAnswer`: the same rows, stops and places), on a reader's
// connection off the loop; its messages (`ShiftResend`) are then queued on the loop a few a
// transaction, so capture commits between them, and the request is answered once all are.
extension UplinkComponent {
  /// Messages queued in one store transaction: eight thousand samples at most.
  static let resendMessagesPerTransaction = 8

  /// A resend being queued: what remains, and whom to answer.
  final class ResendInProgress {
    let resend: ShiftResend
    let responder: Responder
    var next = 0
    var firstSequence: Int64?
    var lastSequence: Int64?

    init(resend: ShiftResend, responder: Responder) {
      self.resend = resend
      self.responder = responder
    }
  }

  public func handle(_ request: ControlRequest, responder: Responder) {
    guard case .shiftResend(let arguments) = request.command else {
      return responder.fail(.unavailable, "\(name) does not answer \(request.command.name)")
    }
    resend(arguments, responder)
  }

  func resend(_ arguments: ShiftResendArguments, _ responder: Responder) {
    let command = ControlCommand.Kind.shiftResend.rawValue
    guard let context else { return responder.fail(.unavailable, "the uplink is starting") }
    if let running = resending {
      return responder.fail(
        .busy,
        "\(command): shift \(running.resend.shiftID) is being queued again; send this again once that is answered")
    }
    let readers =
      self.readers
      ?? StoreReaders(path: configuration.databasePath, count: 1, mailbox: context.mailbox, name: "uplink-reader")
    self.readers = readers
    let (policy, places, unit) = (configuration.stopPolicy, places(), configuration.units)
    let reading = context.clock.now()
    let now = context.receiverNow(reading) ?? reading.wall
    let bound = context.bind((self, responder))
    // Taken now, so a second resend is busy while this one is read.
    resending = ResendInProgress(
      resend: ShiftResend(shiftID: arguments.id, samples: [], stops: [], report: nil), responder: responder)
    let outbox = self.outbox
    readers.read({ reader in
      // One snapshot: the rows, and the sequence the outbox had reached when they were read.
      try reader.read { (transaction) throws(StoreError) -> ShiftResend in
        let readAfter = try outbox.lastSequence(in: transaction)
        let answer = try ShiftAnswer(reader, id: arguments.id)
        let stops = answer.stopsAndTime(policy, now: now).stops.map { WireStop($0, place: $0.place(in: places)) }
        var report = ShiftReport(
          shift: answer.stored.shift, distance: answer.measured.distance, unit: unit,
          startedBy: answer.stored.startedBy, endedBy: answer.stored.endedBy)
        // The jobs visited in it, as the ledger has them now.
        report?.jobs = try answer.jobs(reader).filter { $0.state == StoredJob.State.visited.rawValue }
        return ShiftResend(
          shiftID: arguments.id, samples: answer.samples, stops: stops, report: report, since: arguments.since,
          until: arguments.until, readAfterSequence: readAfter)
      }
    }) { result in
      bound.withValue { component, responder in
        switch result {
        case .success(let resend):
          let progress = ResendInProgress(resend: resend, responder: responder)
          component.resending = progress
          component.queueMore(progress)
        case .failure(let error):
          component.resending = nil
          let refused = RecordingComponent.controlError(error)
          responder.fail(refused.code, "\(command): \(refused.message)")
        }
      }
    }
  }

  /// Queues the next few messages of `progress`, then the rest from the loop's next turn;
  /// answers once all are queued.
  func queueMore(_ progress: ResendInProgress) {
    let resend = progress.resend
    guard let store, let context else { return }
    let end = min(progress.next + Self.resendMessagesPerTransaction, resend.messages.count)
    if progress.next < end {
      let now = context.clock.now().wall
      do {
        let (first, last, overflow) = try store.transaction("queue shift \(resend.shiftID) again") {
          (transaction) throws(StoreError) in
          let before = try outbox.lastSequence(in: transaction)
          let overflow = try outbox.enqueue(resend, messages: progress.next..<end, queuedAt: now, in: transaction)
          return (before + 1, try outbox.lastSequence(in: transaction), overflow)
        }
        progress.firstSequence = progress.firstSequence ?? first
        progress.lastSequence = last
        progress.next = end
        enqueued(overflow)
      } catch {
        resending = nil
        return progress.responder.fail(
          .failed,
          "shift.resend: the outbox could not be written after \(progress.next) of \(resend.messages.count) "
            + "messages: \(error)")
      }
    }
    guard progress.next == resend.messages.count else {
      let bound = context.bind(self)
      context.mailbox.post { bound.withValue { $0.resending.map($0.queueMore) } }
      return
    }
    resending = nil
    let result = ShiftResendResult(
      shift: resend.shiftID, samples: resend.sampleCount, stops: resend.stopCount, shiftMessage: resend.includesShift,
      messages: resend.messages.count, firstSequence: progress.firstSequence, lastSequence: progress.lastSequence)
    context.logger.info(
      "uplink: shift \(resend.shiftID): \(result.summary)",
      fields: LogFields(shift: resend.shiftID, reason: "uplink"))
    progress.responder.succeed(result)
  }
}
