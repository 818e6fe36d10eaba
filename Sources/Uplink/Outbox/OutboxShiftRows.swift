import Store

/// A shift's rows in the uplink's tables, deleted with the shift (retention): the entries
/// still queued for it (a session or event message the broker had not taken yet; on a box
/// whose uplink has since been turned off, any), and its `ShiftDelivery` record. The outbox
/// has no index by shift (it would add a page to every commit), so its entries are looked
/// at a window of sequences at a time, `limit` at most per step: the outbox is bounded, and
/// no step holds the writer longer than that. A file whose uplink was never configured has
/// none of these tables, and nothing is done.
public final class OutboxShiftRows: ShiftCompanionRows {
  /// Which of the tables the file holds, read at the first step of each shift's deletion.
  private var tables: Set<String> = []

  public init() {}

  public func deleteRows(ofShift shiftID: Int64, from position: Int64, limit: Int, in transaction: StoreTransaction)
    throws(StoreError) -> (deleted: Int, next: Int64?)
  {
    if position == 0 {
      tables = []
      try transaction.query(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name IN ('uplink_outbox', 'uplink_shift_delivery')"
      ) { row in if let name = row.text(0) { tables.insert(name) } }
    }
    var span: (first: Int64, last: Int64)?
    if tables.contains("uplink_outbox") {
      try transaction.query("SELECT min(sequence), max(sequence) FROM uplink_outbox") { row in
        if let first = row.optionalInt64(0), let last = row.optionalInt64(1) { span = (first, last) }
      }
    }
    let start = max(position, span?.first ?? 0)
    guard let span, start <= span.last else {
      guard tables.contains("uplink_shift_delivery") else { return (0, nil) }
      try transaction.query("DELETE FROM uplink_shift_delivery WHERE shift_id = ?", [.integer(shiftID)])
      return (transaction.changes, nil)
    }
    let end = start + Int64(max(1, limit))
    try transaction.query(
      "DELETE FROM uplink_outbox WHERE sequence >= ? AND sequence < ? AND shift_id = ?",
      [.integer(start), .integer(end), .integer(shiftID)])
    return (transaction.changes, end)
  }
}
