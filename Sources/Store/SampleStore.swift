import DashPilotCore
import FoundationEssentials

/// The daemon's durable record: shifts, capture sessions and the samples of each shift, in
/// one SQLite file. Every call blocks on the disk, so the store belongs to one thread of
/// the daemon's own (never the Swift concurrency pool); it is deliberately not Sendable.
///
/// Nothing derived is persisted: a shift's distance is measured from its rows whenever it
/// is asked (`recordedDistance(ofShift:)`).
public final class SampleStore {
  public let database: Database
  /// What happened on open (created, migrated, or a damaged file moved aside), for the log.
  public private(set) var openReport: StoreOpenReport

  /// Capture sessions by row id and by identifier: a shift has a handful, read with every
  /// sample, so they are resolved in memory. Cleared whenever a write fails, since the rows
  /// they describe may have been rolled back.
  var sessionIDsByRow: [Int64: CaptureSessionID] = [:]
  var sessionRowsByID: [CaptureSessionID: Int64] = [:]
  var lastSessionResolved: (row: Int64, id: CaptureSessionID)?
  /// Told of every batch, completed shift and capture session inside the transaction that
  /// commits it (the uplink's outbox); nil when nothing listens.
  public var commitObserver: (any StoreCommitObserver)?

  /// Opens the store at `path`, creating it if needed. `now` names a damaged file moved
  /// aside. Throws `.newerSchema` (file untouched) for a file from a newer DashPilot.
  public convenience init(path: String, now: Date = Date()) throws(StoreError) {
    try self.init(path: path, now: now, vfs: nil)
  }

  /// `vfs` names a registered SQLite VFS; tests use one that injects I/O errors.
  init(path: String, now: Date, vfs: String?) throws(StoreError) {
    (database, openReport) = try DatabaseOpener.open(path: path, now: now, vfs: vfs)
    // Not fatal: with a wrong count the live figure is only measured from scratch more
    // often, and a store that cannot write can still answer for its history.
    do {
      try recountOpenShift()
    } catch {
      openReport.problems.append("the open shift's row count could not be checked: \(error)")
    }
  }

  /// The live figure trusts the open shift's kept row count; it is checked against the
  /// rows once on open (one index scan) and put right if anything ever changed it.
  func recountOpenShift() throws(StoreError) {
    try write("recount the open shift's rows") { () throws(StoreError) in
      try database.execute(
        """
        UPDATE shifts SET sample_count = (SELECT count(*) FROM samples WHERE shift_id = shifts.id)
        WHERE ended_at_ms IS NULL
          AND sample_count IS NOT (SELECT count(*) FROM samples WHERE shift_id = shifts.id)
        """)
    }
  }

  /// Forgets cached session rows after a failed write.
  func forgetCachedRows() {
    sessionIDsByRow.removeAll()
    sessionRowsByID.removeAll()
    lastSessionResolved = nil
  }

  /// A write transaction that forgets cached rows if it fails.
  func write<T>(_ operation: String, _ body: () throws(StoreError) -> T) throws(StoreError) -> T {
    do {
      return try database.writeTransaction(operation, body)
    } catch {
      forgetCachedRows()
      throw error.within(operation)
    }
  }

  /// The whole file's health, as `PRAGMA integrity_check` reports it ("ok" when healthy).
  public func integrityCheck() throws(StoreError) -> [String] {
    try database.textColumn("PRAGMA integrity_check")
  }
}
