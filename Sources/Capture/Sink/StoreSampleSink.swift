import DashPilotCore
import FoundationEssentials
import Store

/// Keeps accepted samples in the SQLite store, in the short batched transactions that bound
/// what a power cut can lose to about a second. Both the daemon and replay capture through
/// it, so an offline replay exercises the same writes as a drive.
public final class StoreSampleSink: SampleSink {
  public let batch: SampleBatch
  /// The time the batch policy judges "a second" by: the daemon's clock, or the fix times
  /// of a replayed log.
  private let now: () -> Date
  /// The sessions' records, and the ones the file still owes.
  private var sessions = SessionRecords()
  /// The last store error met outside a save (recording a session's start or end), for
  /// status; saves report theirs to capture by throwing.
  public var lastError: StoreError? { sessions.lastError }

  public init(batch: SampleBatch, now: @escaping () -> Date) {
    self.batch = batch
    self.now = now
  }

  public var store: SampleStore { batch.store }

  public func save(_ sample: RouteSample) throws {
    try batch.append(sample, at: now())
  }

  public func lastRetainedSample() throws -> RouteSample? {
    try batch.lastSample()
  }

  /// Writes pending samples whose second is up; call it from a timer so a lone sample is
  /// not held when no further fix arrives. A failure is a failed save: hand it to
  /// `CaptureService.saveFailed(reason:)` so the session ends.
  @discardableResult
  public func flushIfDue() throws(SampleBatchFailure) -> Int {
    try batch.flushIfDue(at: now())
  }

  /// Writes everything pending (shift end, daemon stopping).
  @discardableResult
  public func flush() throws(SampleBatchFailure) -> Int {
    try batch.flush()
  }

  public func captureSessionStarted(_ session: CaptureSessionID, reason: SessionStartReason, at: Date?) {
    let (store, shiftID, at) = (batch.store, batch.shiftID, at ?? now())
    sessions.record { () throws(StoreError) in
      try store.beginCaptureSession(session, at: at, shiftID: shiftID, reason: reason.code)
    }
  }

  public func captureSessionEnded(_ session: CaptureSessionID, reason: SessionEndReason, at: Date?) {
    // What the session kept is written before its end is recorded; a failure here is
    // reported by the next save, which meets the same store.
    _ = try? batch.flush()
    sessions.sessionEnded(session, reason: reason, at: at ?? now(), shiftID: batch.shiftID, in: batch.store)
  }

  /// Tries the store again after a failed save, by writing what the file still owes: the
  /// end of the session the failure ended (capture holds no session meanwhile, so any
  /// session still marked running is that one; it ends at the last sample kept). A real
  /// write to the same file, so success means the disk takes pages again. With nothing
  /// owed there is nothing to try, and capture tries with its next sample. Throws the
  /// store's error while it still fails.
  public func retryAfterFailure() throws(StoreError) {
    guard sessions.isOwed else { return }
    let lastKept = (try? batch.lastSample())?.timestamp
    _ = try sessions.settle(in: batch.store, at: lastKept ?? now())
  }
}
