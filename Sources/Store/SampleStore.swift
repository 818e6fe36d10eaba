import DashPilotCore
import Foundation

/// The daemon's durable record: shifts, capture sessions and the samples of each shift, in
/// one SQLite file. Every call blocks on the disk, so the store belongs to one thread of
/// the daemon's own (never the Swift concurrency pool); it is deliberately not Sendable.
///
/// Nothing derived is persisted: a shift's distance is measured from its rows whenever it
/// is asked (`recordedDistance(ofShift:)`).
public final class SampleStore {
  public let database: Database
  /// What happened on open (created, migrated, or a damaged file moved aside), for the log.
  public let openReport: StoreOpenReport

  /// Capture sessions by row id and by identifier: a shift has a handful, read with every
  /// sample, so they are resolved in memory. Cleared whenever a write fails, since the rows
  /// they describe may have been rolled back.
  var sessionIDsByRow: [Int64: CaptureSessionID] = [:]
  var sessionRowsByID: [CaptureSessionID: Int64] = [:]
  var lastSessionResolved: (row: Int64, id: CaptureSessionID)?

  /// Opens the store at `path`, creating it if needed. `now` names a damaged file moved
  /// aside. Throws `.newerSchema` (file untouched) for a file from a newer DashPilot.
  public init(path: String, now: Date = Date()) throws(StoreError) {
    (database, openReport) = try DatabaseOpener.open(path: path, now: now)
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
