import FoundationEssentials
import PlatformSupport
import Store
import Uplink

// Working through a pass: a candidate at a time, each deleted a step at a time, one step per
// turn of the loop.
extension RetentionComponent {
  /// Candidates looked at per step of a pass.
  static let candidatesPerStep = 64

  func beginAgePass(now: ClockReading) {
    guard let context else { return }
    guard let trusted = context.trustedNow(now), let cutoff = policy.ageCutoff(now: trusted) else {
      if !saidWaitingForTrustedTime {
        saidWaitingForTrustedTime = true
        context.logger.info(RetentionWording.waitingForTrustedTime, fields: LogFields(reason: "retention"))
      }
      return
    }
    lastAgePass = now.monotonic
    pass = resumeFirst() ?? .age(cutoff: cutoff, now: trusted, cursor: nil, kept: [])
    scheduleStep(after: 0)
  }

  func beginFreeSpacePass() {
    pass = resumeFirst() ?? .freeSpace(cursor: nil)
    scheduleStep(after: 0)
  }

  /// A deletion that failed part-way is finished before anything else is begun: its shift
  /// is already out of every list.
  private func resumeFirst() -> RetentionPass? {
    guard let store, let marked = try? store.shiftsBeingDeleted(), !marked.isEmpty else { return nil }
    return .resume
  }

  func scheduleStep(after delay: TimeInterval) {
    guard let context, !stepScheduled else { return }
    stepScheduled = true
    context.after(delay) { [weak self] in
      guard let self else { return }
      stepScheduled = false
      step()
    }
  }

  /// One step: a transaction of the shift being deleted, or the choice of the next one.
  /// While deletions wait, nothing: the tick takes the work up again once they may go.
  func step() {
    guard let store, let context, deletionsMayGo() else { return }
    do {
      if let (started, reason) = current {
        var deletion = started
        let began = context.clock.monotonic()
        try store.continueDeleting(&deletion, rowLimit: Self.rowsPerStep)
        let took = context.clock.monotonic() - began
        current = (deletion, reason)
        if deletion.isFinished {
          current = nil
          context.logger.notice(
            RetentionWording.deleted(deletion, reason: reason, policy: policy),
            fields: LogFields(shift: deletion.shift.id, reason: "retention"))
          readSpace()
        }
        scheduleStep(after: max(Self.minimumPause, took * Self.pause))
      } else if try chooseNext() {
        scheduleStep(after: 0)
      }
    } catch {
      let id = current?.deletion.shift.id ?? 0
      context.logger.warning(RetentionWording.failed(id, error), fields: LogFields(shift: id, reason: "retention"))
      // The mark stays: the next pass, an hour on, takes the shift up again.
      current = nil
      pass = nil
      nextFreeSpacePass = context.clock.monotonic() + Self.passInterval
    }
  }

  /// Whether the store's file lets rows go now (`deletionGate`); the first wait for its
  /// copy is said, when retention has anything it might delete.
  func deletionsMayGo() -> Bool {
    let gate = deletionGate()
    guard gate != .open else { return true }
    let mightDelete =
      policy.keepDays != nil || (policy.requiresAcknowledgement && !policy.floor.isOff) || pass != nil
      || current != nil
    if gate == .waitingForCopy, mightDelete, !saidWaitingForCopy {
      saidWaitingForCopy = true
      context?.logger.notice(RetentionWording.waitingForCopy, fields: LogFields(reason: "retention"))
    }
    return false
  }

  /// Begins deleting the next shift of the pass; false once the pass is over.
  private func chooseNext() throws -> Bool {
    guard let store, let context, let pass else { return false }
    switch pass {
    case .resume:
      guard let id = try store.shiftsBeingDeleted().first else {
        self.pass = nil
        return false
      }
      current = (try store.beginDeleting(shift: id, companions: companions), nil)
      return true
    case .age(let cutoff, let now, let cursor, var kept):
      let page = try store.completedShifts(endedBy: cutoff, after: cursor, limit: Self.candidatesPerStep)
      for candidate in page {
        if let endedAt = candidate.shift.endedAt,
          let reason = policy.ageReason(endedAt: endedAt, acknowledged: try isAcknowledged(candidate.id), now: now)
        {
          self.pass = .age(cutoff: cutoff, now: now, cursor: candidate, kept: kept)
          current = (try store.beginDeleting(shift: candidate.id, companions: companions), reason)
          return true
        }
        kept.append(candidate.id)
      }
      // A full page of shifts that stay: the next page at the next step.
      if page.count == Self.candidatesPerStep {
        self.pass = .age(cutoff: cutoff, now: now, cursor: page.last, kept: kept)
        return true
      }
      self.pass = nil
      finishAgePass(kept: kept)
      return false
    case .freeSpace(let cursor):
      guard let space, let shortfall = policy.shortfall(space) else {
        saidStuckBelowFloor = false
        self.pass = nil
        return false
      }
      let page = try store.completedShifts(after: cursor, limit: Self.candidatesPerStep)
      for candidate in page where policy.mayDeleteForSpace(acknowledged: try isAcknowledged(candidate.id)) {
        self.pass = .freeSpace(cursor: candidate)
        current = (
          try store.beginDeleting(shift: candidate.id, companions: companions),
          .freeSpace(available: shortfall.available, floor: shortfall.floor)
        )
        return true
      }
      if page.count == Self.candidatesPerStep {
        self.pass = .freeSpace(cursor: page.last)
        return true
      }
      self.pass = nil
      nextFreeSpacePass = context.clock.monotonic() + Self.passInterval
      if !saidStuckBelowFloor {
        saidStuckBelowFloor = true
        context.logger.warning(
          RetentionWording.stuckBelowFloor(
            available: shortfall.available, floor: shortfall.floor, uplink: policy.requiresAcknowledgement),
          fields: LogFields(reason: "retention"))
      }
      return false
    }
  }

  private func finishAgePass(kept: [Int64]) {
    guard let keepDays = policy.keepDays, kept != reportedUnacknowledged else { return }
    reportedUnacknowledged = kept
    guard !kept.isEmpty else { return }
    context?.logger.notice(
      RetentionWording.keptUnacknowledged(kept, keepDays: keepDays), fields: LogFields(reason: "retention"))
  }

  /// Whether the broker acknowledged shift `id` and every one of its samples; always
  /// false without an uplink (nothing was sent).
  private func isAcknowledged(_ id: Int64) throws -> Bool {
    guard policy.requiresAcknowledgement, let store else { return false }
    return try store.read { (transaction) throws(StoreError) in
      try ShiftDelivery.isAcknowledged(shift: id, in: transaction)
    }
  }
}
