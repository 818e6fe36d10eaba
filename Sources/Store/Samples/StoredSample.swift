import DashPilotCore

/// A stored sample with the row it lives in, so a reader can ask for "the rows after this
/// one" and count what it has read.
public struct StoredSample: Sendable, Hashable {
  /// The row's id: increases with every insert while rows are kept. After a rollback or a
  /// deletion of the last rows an id may be given again (a file made before schema 5 never
  /// does: AUTOINCREMENT), which the store's row epoch reports (`rowTally`).
  public var rowID: Int64
  public var shiftID: Int64
  public var sample: RouteSample

  public init(rowID: Int64, shiftID: Int64, sample: RouteSample) {
    self.rowID = rowID
    self.shiftID = shiftID
    self.sample = sample
  }
}
