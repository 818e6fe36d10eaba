/// Rows another module keeps for a shift in the store's file, deleted with it: the uplink's
/// outbox entries of the shift and its record of what the broker acknowledged. Called inside
/// the deletion's own small transactions, after the shift's samples and capture sessions are
/// gone and before its row goes.
public protocol ShiftCompanionRows: AnyObject {
  /// Deletes some of its rows of shift `shiftID` in `transaction`, looking at no more than
  /// about `limit` rows, from `position` on (0 the first time). Returns how many it deleted
  /// and the position to go on from, nil once none of them are left.
  func deleteRows(ofShift shiftID: Int64, from position: Int64, limit: Int, in transaction: StoreTransaction)
    throws(StoreError) -> (deleted: Int, next: Int64?)
}

/// A completed shift being deleted whole, one small transaction at a time
/// (`SampleStore.beginDeleting`, then `continueDeleting` until `isFinished`), so that
/// capture's one-second commits keep their pace while a long shift goes.
///
/// Marked first, the shift is out of every list and figure from then on; then its samples
/// go, a chunk at a time; then the capture sessions only its samples named; then its rows
/// in other modules' tables; then its own row. A power cut in between leaves the mark, and
/// `SampleStore.shiftsBeingDeleted` finds the shift again.
public struct ShiftDeletion {
  public let shift: StoredShift
  public internal(set) var samplesDeleted = 0
  public internal(set) var captureSessionsDeleted = 0
  public internal(set) var companionRowsDeleted = 0
  let companions: [any ShiftCompanionRows]
  /// The capture session rows named by this shift's samples and by no other row, planned
  /// from its rows before the first of them goes; nil when there are none to delete (or a
  /// deletion resumed after its samples had gone: those rows are left, a few small rows).
  let sessionRows: ClosedRange<Int64>?
  var stage: Stage = .samples

  enum Stage: Equatable {
    case samples
    case captureSessions
    case companion(index: Int, position: Int64)
    case shiftRow
    case finished
  }

  public var isFinished: Bool { stage == .finished }

  /// Rows deleted so far, in every table.
  public var rowsDeleted: Int { samplesDeleted + captureSessionsDeleted + companionRowsDeleted }
}
