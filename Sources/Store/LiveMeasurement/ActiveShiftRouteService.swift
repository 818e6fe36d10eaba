import DashPilotCore
import FoundationEssentials

/// The running shift's figure as queries: the id of the shift's last row and the store's
/// row epoch, and only when those moved, a read of the rows after the last one measured.
/// Neither reads the whole route, so a status request costs the same at hour one and hour
/// ten.
public final class ActiveShiftRouteService {
  /// The open shift's figure so far.
  public struct Status: Sendable, Hashable {
    public var shift: StoredShift
    /// Measured with no shift window.
    public var distance: RouteDistance
    /// Rows the figure was measured from.
    public var rowsMeasured: Int
  }

  public let store: SampleStore
  public private(set) var measurement: ActiveRouteMeasurement?

  public init(store: SampleStore) { self.store = store }

  /// The open shift's figure, brought up to date with the store; nil when no shift is open
  /// (the measurement is then thrown away).
  public func status() throws(StoreError) -> Status? {
    try store.database.readTransaction { () throws(StoreError) -> Status? in
      guard let open = try store.openShift() else {
        measurement = nil
        return nil
      }
      var current =
        measurement.flatMap { $0.shiftID == open.id ? $0 : nil }
        ?? ActiveRouteMeasurement(shiftID: open.id, maximumSampleInterval: open.maximumSampleInterval)
      let (rowEpoch, lastRowID) = try store.rowTally(ofShift: open.id)
      let rowAtLastRead = try current.lastRowRead.flatMap { (row) throws(StoreError) -> RouteSample? in
        try store.storedSample(row: row.rowID, ofShift: open.id)
      }
      let tally = ActiveRouteMeasurement.StoreTally(
        rowEpoch: rowEpoch, lastRowID: lastRowID, rowAtLastRead: rowAtLastRead)
      let readAfter: Int64
      switch current.step(given: tally) {
      case .upToDate:
        measurement = current
        return Status(shift: open, distance: current.distance, rowsMeasured: current.rowsRead)
      case .readRows(let after):
        readAfter = after
      case .measureAgain:
        current.startAgain()
        readAfter = 0
      }
      // Walked as they are read: the first status of a long shift holds no copy of it.
      try store.readRows(ofShift: open.id, after: readAfter) { (row, sample) in
        current.extend(with: StoredSample(rowID: row, shiftID: open.id, sample: sample), rowEpoch: rowEpoch)
        return true
      }
      measurement = current
      return Status(shift: open, distance: current.distance, rowsMeasured: current.rowsRead)
    }
  }
}
