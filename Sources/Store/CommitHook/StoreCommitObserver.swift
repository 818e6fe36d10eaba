import DashPilotCore
import FoundationEssentials

/// Told of what a write transaction is about to commit, from inside that transaction, so
/// what it writes (the uplink's outbox entries) commits or rolls back with the rows it
/// describes. A throw rolls the whole transaction back. Called on the store's thread.
public protocol StoreCommitObserver: AnyObject {
  /// Samples appended to shift `shiftID` (a capture batch or an import), in stored order.
  func samplesStored(_ samples: [RouteSample], shiftID: Int64) throws(StoreError)
  /// A shift completed (ended, or imported whole), with its figure measured from its rows.
  func shiftCompleted(_ shift: Shift, distance: RouteDistance) throws(StoreError)
  /// A capture session's row was created (its first sample, or an explicit begin).
  func captureSessionBegan(_ id: CaptureSessionID, at startedAt: Date, shiftID: Int64?) throws(StoreError)
  /// A capture session was marked ended.
  func captureSessionEnded(_ id: CaptureSessionID, at endedAt: Date, reason: String) throws(StoreError)
}

extension SampleStore {
  /// The SQLite connection, for a commit observer that writes its own tables in the
  /// store's transactions. Use it only on the store's thread.
  public var connectionHandle: OpaquePointer { database.handle }
}
