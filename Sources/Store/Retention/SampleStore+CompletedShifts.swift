import FoundationEssentials

extension SampleStore {
  /// Completed shifts (none being deleted) in the order they ended, ties by id, starting
  /// after `after` in that order; with `endedBy`, only those that ended by then. At most
  /// `limit`: what retention looks at next, a page at a time.
  public func completedShifts(
    endedBy: Date? = nil, after: StoredShift? = nil, limit: Int
  ) throws(StoreError) -> [StoredShift] {
    let latest = try endedBy.map { (date) throws(StoreError) in try EncodedSample.milliseconds(date, role: "cut-off") }
    let cursorEnd = try after?.shift.endedAt.map { (date) throws(StoreError) in
      try EncodedSample.milliseconds(date, role: "cursor")
    }
    return try database.withStatement(
      """
      SELECT \(Self.shiftColumns) FROM shifts
      WHERE deleting = 0 AND ended_at_ms IS NOT NULL AND ended_at_ms <= ? AND (ended_at_ms, id) > (?, ?)
      ORDER BY ended_at_ms, id LIMIT ?
      """
    ) { (s) throws(StoreError) -> [StoredShift] in
      try s.bind(latest ?? Int64.max, at: 1)
      try s.bind(cursorEnd ?? Int64.min, at: 2)
      try s.bind(after?.id ?? Int64.min, at: 3)
      try s.bind(Int64(max(0, limit)), at: 4)
      var result: [StoredShift] = []
      while try s.step() { result.append(Self.shift(from: s)) }
      return result
    }
  }
}
