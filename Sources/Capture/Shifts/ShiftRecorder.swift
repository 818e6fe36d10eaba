import DashPilotCore
import FoundationEssentials
import Store

/// Keeps each sample capture kept where `ShiftPolicy` says it belongs, and opens and ends
/// the shifts it decides: the one adapter of the policy, so the daemon (`[Shift]
/// Start=movement`) and `replay --shifts movement` run the same rules on the same writes.
///
/// Where samples wait: a movement not yet decided, and a stand within an open shift, wait
/// in the policy, in memory (bounded by `ShiftPolicyConfiguration.pendingLimit`); a
/// shift's samples go into its one-second batches (`StoreSampleSink`) like any others.
/// Memory, not the store, because a start is decided within a minute or two of moving and
/// a stand either ends in a move (its samples are then written, in order) or in the shift's
/// end (they were never the shift's): nothing undecided is ever written, so a power cut can
/// leave nothing half-decided in the file, only lose a movement that had not yet shown it
/// was a shift, or a stand the next fix would have judged anyway.
///
/// Capture sessions are recorded in the store when their first sample is written into a
/// shift (a session that only watched the vehicle stand leaves no row), and ended there
/// when capture ends them. What it opened and ended is kept in `changes` for the owner to
/// say (the daemon's journal and events; replay's list of shifts).
public final class ShiftRecorder: CaptureStoreSink {
  /// What the recorder did in the store.
  public enum Change: Sendable, Hashable {
    /// A shift opened: on movement (`displacement`: metres from where the vehicle stood),
    /// or by hand (nil).
    case started(StoredShift, displacement: Double?)
    /// A shift ended, with its figure measured from its rows (nil when that read failed).
    case ended(StoredShift, distance: RouteDistance?)
  }

  public let store: SampleStore
  public private(set) var policy: ShiftPolicy
  public private(set) var changes: [Change] = []
  /// The last store error met outside a save (a session's record, a shift's figure).
  public var lastError: StoreError? { figureError ?? sessions.lastError }
  private var figureError: StoreError?
  private let batchPolicy: SampleBatchPolicy
  private let maximumSampleInterval: TimeInterval
  /// The time the batches judge "a second" by: the daemon's wall clock, or a replayed
  /// report's fix time.
  private let now: () -> Date
  /// The open shift's batches.
  private var open: StoreSampleSink?
  /// The newest sample kept, written or waiting: what the filter judges the next fix by.
  private var lastKept: RouteSample?
  /// Sessions capture began whose first sample has not been written into a shift yet.
  private var unrecorded: [CaptureSessionID: (at: Date?, reason: SessionStartReason)] = [:]
  /// Sessions the store holds and has not seen end, with the shift they last wrote into.
  private var recorded: [CaptureSessionID: Int64] = [:]
  /// The sessions' records, and the ones the file still owes (`retryAfterFailure` writes them).
  private var sessions = SessionRecords()

  /// Records into `store`; a shift already open there (a restart) is resumed as it was
  /// started, waiting for a fix to decide whether it goes on.
  public init(
    store: SampleStore, configuration: ShiftPolicy.Configuration, batchPolicy: SampleBatchPolicy = SampleBatchPolicy(),
    maximumSampleInterval: TimeInterval, now: @escaping () -> Date
  ) throws(StoreError) {
    self.store = store
    self.batchPolicy = batchPolicy
    self.maximumSampleInterval = maximumSampleInterval
    self.now = now
    if let shift = try store.openShift() {
      let lastRow = try store.lastSample(ofShift: shift.id)
      policy = ShiftPolicy(configuration: configuration, resuming: shift.startedBy ?? .manual, lastRow: lastRow)
      open = sink(for: shift.id)
      lastKept = lastRow
    } else {
      policy = ShiftPolicy(configuration: configuration)
    }
  }

  public var shiftID: Int64? { open?.batch.shiftID }
  public var batchIsWritten: Bool { open?.batch.pending.isEmpty ?? true }

  /// What happened since the last call, oldest first.
  public func takeChanges() -> [Change] {
    defer { changes = [] }
    return changes
  }

  // MARK: - What capture kept

  public func save(_ sample: RouteSample) throws {
    var next = policy
    let decisions = next.kept(sample)
    try carryOut(decisions, then: next)
    lastKept = sample
  }

  public func lastRetainedSample() throws -> RouteSample? {
    if let lastKept { return lastKept }
    return try open?.lastRetainedSample()
  }

  /// The receiver's time now (the daemon's tick, a replayed report): a shift that has not
  /// moved for the limit ends.
  public func timePassed(receiverTime: Date) throws {
    var next = policy
    try carryOut(next.timePassed(receiverTime: receiverTime), then: next)
  }

  /// A synchronised wall clock, while a resumed shift waits for its first fix.
  public func timePassed(synchronisedWallClock: Date) throws {
    var next = policy
    try carryOut(next.timePassed(synchronisedWallClock: synchronisedWallClock), then: next)
  }

  /// The places were replaced: `[Shift] EndAtPlace=` is now `place`.
  public func replaceEndPlace(_ place: Place?) {
    policy.replaceEndPlace(place)
  }

  /// The end of a replayed log: a shift still open ends at its last kept fix.
  public func logEnded() throws {
    var next = policy
    try carryOut(next.logEnded(), then: next)
  }

  /// Carries out one call's decisions (at most one of them opens or ends a shift). The
  /// policy moves on once the store has: a start, end or write that failed is decided again
  /// with the next sample, while a shift that opened stays open whatever became of its rows.
  private func carryOut(_ decisions: [ShiftDecision], then next: ShiftPolicy) throws {
    do {
      for decision in decisions {
        switch decision {
        case let .keep(samples):
          try write(samples)
        case let .start(at, samples, displacement):
          let shift = try store.startShift(
            at: at, maximumSampleInterval: maximumSampleInterval, startedBy: .movement)
          open = sink(for: shift.id)
          changes.append(.started(shift, displacement: displacement))
          policy = next
          try write(samples)
        case let .end(at, cause):
          try end(at: at, by: cause)
        }
      }
    } catch {
      lastKept = try? open?.lastRetainedSample()
      throw error
    }
    policy = next
  }

  // MARK: - By hand

  /// `shift start`: a shift from `at`, holding every sample kept from now on.
  public func startByHand(at start: Date) throws(StoreError) -> StoredShift {
    let shift = try store.startShift(at: start, maximumSampleInterval: maximumSampleInterval, startedBy: .manual)
    open = sink(for: shift.id)
    policy.startedByHand()
    return shift
  }

  /// `shift end` at `at`: the stand a shift started on movement holds is written first, so
  /// its window ends on a row. Returns the ended shift and its figure.
  public func endByHand(at end: Date) throws -> (StoredShift, RouteDistance) {
    guard let open else { throw StoreError.noOpenShift }
    var next = policy
    try write(next.endedByHand(at: end))
    try open.flush()
    let ended = try store.endShift(open.batch.shiftID, at: end, endedBy: .manual)
    self.open = nil
    policy = next
    return (ended, try store.recordedDistance(ofShift: ended.id))
  }

  // MARK: - Writing

  private func sink(for shiftID: Int64) -> StoreSampleSink {
    StoreSampleSink(batch: SampleBatch(store: store, shiftID: shiftID, policy: batchPolicy), now: now)
  }

  /// Writes `samples` into the open shift's batch, recording each session's start as its
  /// first sample goes in.
  private func write(_ samples: [RouteSample]) throws {
    guard !samples.isEmpty else { return }
    guard let open else { throw StoreError.noOpenShift }
    let shiftID = open.batch.shiftID
    for sample in samples {
      if let session = sample.captureSessionID {
        if let start = unrecorded.removeValue(forKey: session) {
          let store = store
          sessions.record { () throws(StoreError) in
            try store.beginCaptureSession(
              session, at: start.at ?? sample.timestamp, shiftID: shiftID, reason: start.reason.code)
          }
        }
        recorded[session] = shiftID
      }
      try open.save(sample)
    }
  }

  private func end(at end: Date, by cause: ShiftEndCause) throws {
    guard let open else { return }
    try open.flush()
    let started = try store.shift(id: open.batch.shiftID)?.shift.startedAt ?? end
    let ended = try store.endShift(open.batch.shiftID, at: max(end, started), endedBy: cause)
    self.open = nil
    var distance: RouteDistance?
    do {
      distance = try store.recordedDistance(ofShift: ended.id)
    } catch {
      figureError = error
    }
    changes.append(.ended(ended, distance: distance))
  }

  // MARK: - Sessions and batches

  public func captureSessionStarted(_ session: CaptureSessionID, reason: SessionStartReason, at: Date?) {
    unrecorded[session] = (at, reason)
  }

  public func captureSessionEnded(_ session: CaptureSessionID, reason: SessionEndReason, at: Date?) {
    policy.captureSessionEnded()
    unrecorded[session] = nil
    guard let shiftID = recorded.removeValue(forKey: session) else { return }
    // What the session kept is written before its end is recorded; a failure here is
    // reported by the next save, which meets the same store.
    _ = try? open?.flush()
    sessions.sessionEnded(session, reason: reason, at: at ?? now(), shiftID: shiftID, in: store)
  }

  @discardableResult
  public func flushIfDue() throws(SampleBatchFailure) -> Int {
    try open?.flushIfDue() ?? 0
  }

  @discardableResult
  public func flush() throws(SampleBatchFailure) -> Int {
    try open?.flush() ?? 0
  }

  /// As `StoreSampleSink.retryAfterFailure`: writes the session record the store still owes
  /// (capture holds no session meanwhile, so any session still marked running is the one
  /// the failure ended), a real write that shows whether the disk takes pages again.
  public func retryAfterFailure() throws(StoreError) {
    guard sessions.isOwed else { return }
    let lastWritten = (try? open?.lastRetainedSample())?.timestamp
    _ = try sessions.settle(in: store, at: lastWritten ?? now())
    recorded = [:]
    figureError = nil
  }
}
