import DashPilotCore
import Foundation

/// The running shift's route measured so far: the open walk (`RouteMileageAccumulator`)
/// plus the bookkeeping that keeps it honest against the store. It counts the rows it has
/// read itself, never trusting the store's figure for that, so when the store holds fewer
/// rows than were read (a rolled-back batch, deleted rows) the discard is visible and the
/// route is measured again from scratch. Held in memory only; nothing of it is stored.
public struct ActiveRouteMeasurement: Sendable, Hashable {
  /// What bringing the measurement up to date with the store needs.
  public enum Step: Sendable, Hashable {
    /// The store holds exactly the rows already read.
    case upToDate
    /// Read the rows after this row id and extend with them.
    case readRows(after: Int64)
    /// Rows already read have gone: throw the walk away and read every row again.
    case measureAgain
  }

  public let shiftID: Int64
  public private(set) var walk: RouteMileageAccumulator
  /// Rows read and walked since the last fresh start.
  public private(set) var rowsRead: Int = 0
  /// The id of the last row read (0 before any).
  public private(set) var lastRowID: Int64 = 0
  /// How many times the measurement had to start again because rows disappeared.
  public private(set) var freshStarts: Int = 0

  public init(shiftID: Int64, maximumSampleInterval: TimeInterval) {
    self.shiftID = shiftID
    walk = RouteMileageAccumulator(maximumSampleInterval: maximumSampleInterval)
  }

  /// The route so far, with no shift window: a running shift's window is still growing.
  public var distance: RouteDistance { walk.distance(covering: nil) }

  /// Compares what the store holds for the shift (its row count and last row id) with what
  /// was read. Row ids only grow, so new rows always come after `lastRowID`.
  public func step(storeRowCount: Int, storeLastRowID: Int64) -> Step {
    if storeRowCount < rowsRead || storeLastRowID < lastRowID { return .measureAgain }
    if storeRowCount == rowsRead && storeLastRowID == lastRowID { return .upToDate }
    return .readRows(after: lastRowID)
  }

  /// Extends forwards with `rows`, read in row order after `lastRowID`. A position at or
  /// before the last one walked is not counted (the one-pass rule too).
  public mutating func extend(with rows: [StoredSample]) {
    for row in rows {
      walk.extend(with: row.sample)
      lastRowID = max(lastRowID, row.rowID)
    }
    rowsRead += rows.count
  }

  /// Forgets everything walked, to measure again from the first row.
  public mutating func startAgain() {
    walk = RouteMileageAccumulator(maximumSampleInterval: walk.maximumSampleInterval)
    rowsRead = 0
    lastRowID = 0
    freshStarts += 1
  }
}
