import DashPilotCore
import FoundationEssentials
import Store

/// The capture-session records a sink writes beside its samples, and the ones it still
/// owes: a record that could not be written (typically the end of the session a full disk
/// ended) is owed until `settle` writes it, which is also the store's retry after a failed
/// save, a real write that shows whether the disk takes pages again. `StoreSampleSink` and
/// `ShiftRecorder` keep theirs the same way.
struct SessionRecords {
  /// The last store error met writing a record, for status.
  private(set) var lastError: StoreError?
  /// Whether a session's start or end could not be recorded: the file still owes it.
  private(set) var isOwed = false

  /// The end of `session` in shift `shiftID`, with the receiver the reason names.
  mutating func sessionEnded(
    _ session: CaptureSessionID, reason: SessionEndReason, at: Date, shiftID: Int64, in store: SampleStore
  ) {
    record { () throws(StoreError) in
      try store.endCaptureSession(session, at: at, reason: reason.code, device: reason.device, shiftID: shiftID)
    }
  }

  /// Runs `body`, a record's write; a failure is owed.
  mutating func record(_ body: () throws(StoreError) -> Void) {
    do {
      try body()
    } catch {
      lastError = error
      isOwed = true
    }
  }

  /// Writes what is owed: the end of the session the failure ended, at `at` (capture holds
  /// no session meanwhile, so any session still marked running is that one). Returns
  /// whether anything was owed; throws while the store still fails.
  mutating func settle(in store: SampleStore, at: Date) throws(StoreError) -> Bool {
    guard isOwed else { return false }
    try store.endRunningCaptureSessions(at: at, reason: SessionEndReason.saveFailed("").code)
    isOwed = false
    lastError = nil
    return true
  }
}
