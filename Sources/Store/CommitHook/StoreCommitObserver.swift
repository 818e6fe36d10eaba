import DashPilotCore
import FoundationEssentials

/// Told of what a write transaction is about to commit, from inside that transaction, so
/// what it writes in `transaction` (the uplink's outbox entries) commits or rolls back with
/// the rows it describes. A throw rolls the whole transaction back. Called on the store's
/// thread.
public protocol StoreCommitObserver: AnyObject {
  /// Samples appended to shift `shiftID` (a capture batch or an import), in stored order.
  func samplesStored(_ samples: [RouteSample], shiftID: Int64, in transaction: StoreTransaction) throws(StoreError)
  /// A shift completed (ended, or imported whole), with its figure measured from its rows,
  /// how it started and ended, and how many sample rows it holds: every one of them was
  /// handed to `samplesStored` before, so a listener can tell when it has had them all.
  func shiftCompleted(
    _ shift: StoredShift, distance: RouteDistance, sampleRows: Int, in transaction: StoreTransaction
  ) throws(StoreError)
  /// A capture session's row was created (an explicit begin, or its first sample), in
  /// shift `shiftID` (nil when none was open), and why: capture's own code
  /// ("fixes_started"), or `SampleStore.sessionBegunByFirstSample`.
  func captureSessionBegan(
    _ id: CaptureSessionID, at startedAt: Date, shiftID: Int64?, reason: String, in transaction: StoreTransaction
  ) throws(StoreError)
  /// A capture session was marked ended, in shift `shiftID` (nil when none was open), with
  /// the reason the store records ("connection_lost", "daemon restarted", ...).
  func captureSessionEnded(
    _ id: CaptureSessionID, at endedAt: Date, shiftID: Int64?, reason: String, in transaction: StoreTransaction
  ) throws(StoreError)
}
