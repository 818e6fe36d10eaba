import DashPilotCore
import FoundationEssentials

/// The running shift's route measured so far: the open walk (`RouteMileageAccumulator`)
/// plus the bookkeeping that keeps it honest against the store. Rows only ever join a shift
/// at its end, with larger ids, so a reader that knows the last row it read reads on from
/// there; when rows it read may have gone (a rolled-back batch, deleted rows: the store's
/// row epoch moved) or the row it read last is not what the store holds under that id, the
/// route is measured again from scratch. Held in memory only; nothing of it is stored.
public struct ActiveRouteMeasurement: Sendable, Hashable {
  /// What the store holds for the shift, read at a cost that does not grow with it.
  public struct StoreTally: Sendable, Hashable {
    /// Grows whenever rows read before may since have gone or changed (`RowWatch`).
    public var rowEpoch: UInt64
    /// The id of the shift's last row (0 when it has none).
    public var lastRowID: Int64
    /// What the store holds now at the id of the last row this measurement read (nil when
    /// that row is gone). A rolled-back row's id can be given to a new row, so the id
    /// alone would not show that the row read was replaced.
    public var rowAtLastRead: RouteSample?

    public init(rowEpoch: UInt64, lastRowID: Int64, rowAtLastRead: RouteSample?) {
      self.rowEpoch = rowEpoch
      self.lastRowID = lastRowID
      self.rowAtLastRead = rowAtLastRead
    }
  }

  /// What bringing the measurement up to date with the store needs.
  public enum Step: Sendable, Hashable {
    /// The store holds exactly the rows already read.
    case upToDate
    /// Read the rows after this row id and extend with them.
    case readRows(after: Int64)
    /// Rows already read may have gone: throw the walk away and read every row again.
    case measureAgain
  }

  public let shiftID: Int64
  public private(set) var walk: RouteMileageAccumulator
  /// Rows read and walked since the last fresh start.
  public private(set) var rowsRead: Int = 0
  /// The last row read (nil before any).
  public private(set) var lastRowRead: StoredSample?
  /// How many times the measurement had to start again because rows disappeared.
  public private(set) var freshStarts: Int = 0
  /// The store's row epoch when the rows were read (nil before any read).
  public private(set) var rowEpochRead: UInt64?

  public init(shiftID: Int64, maximumSampleInterval: TimeInterval) {
    self.shiftID = shiftID
    walk = RouteMileageAccumulator(maximumSampleInterval: maximumSampleInterval)
  }

  /// The id of the last row read (0 before any). Row ids only grow while rows are kept, so
  /// new rows always come after it.
  public var lastRowID: Int64 { lastRowRead?.rowID ?? 0 }

  /// The route so far, with no shift window: a running shift's window is still growing.
  public var distance: RouteDistance { walk.distance(covering: nil) }

  /// Compares what the store holds for the shift with what was read.
  public func step(given tally: StoreTally) -> Step {
    if let lastRowRead, tally.rowAtLastRead != lastRowRead.sample { return .measureAgain }
    if let rowEpochRead, rowsRead > 0, tally.rowEpoch != rowEpochRead { return .measureAgain }
    if tally.lastRowID < lastRowID { return .measureAgain }
    if tally.lastRowID == lastRowID { return .upToDate }
    return .readRows(after: lastRowID)
  }

  /// Extends forwards with one row, read in row order after `lastRowID` while the store's
  /// row epoch was `rowEpoch`. A position at or before the last one walked is not counted
  /// (the one-pass rule too).
  public mutating func extend(with row: StoredSample, rowEpoch: UInt64) {
    walk.extend(with: row.sample)
    if row.rowID > lastRowID { lastRowRead = row }
    rowsRead += 1
    rowEpochRead = rowEpoch
  }

  /// Forgets everything walked, to measure again from the first row.
  public mutating func startAgain() {
    walk = RouteMileageAccumulator(maximumSampleInterval: walk.maximumSampleInterval)
    rowsRead = 0
    lastRowRead = nil
    rowEpochRead = nil
    freshStarts += 1
  }
}
