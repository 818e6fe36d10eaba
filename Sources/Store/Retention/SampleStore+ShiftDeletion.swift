import FoundationEssentials

extension SampleStore {
  /// Marks completed shift `id` for deletion (one short transaction) and plans the rest
  /// (`ShiftDeletion`). From the mark on, `shift(id:)`, `shifts()` and every figure treat
  /// the shift as gone. A shift already marked (a deletion a restart interrupted) is taken up
  /// again. `.shiftStillOpen` for the open shift, which is never deleted; `.shiftNotFound`
  /// for one that does not exist. `companions` delete the shift's rows in other modules'
  /// tables (`ShiftCompanionRows`).
  public func beginDeleting(
    shift id: Int64, companions: [any ShiftCompanionRows] = []
  ) throws(StoreError) -> ShiftDeletion {
    try write("mark shift \(id) for deletion") { () throws(StoreError) -> ShiftDeletion in
      guard let found = try anyShift(id: id) else { throw .shiftNotFound(id) }
      guard !found.shift.isRunning else { throw .shiftStillOpen(found.shift) }
      try database.withStatement("UPDATE shifts SET deleting = 1 WHERE id = ? AND ended_at_ms IS NOT NULL") {
        (s) throws(StoreError) in
        try s.bind(id, at: 1)
        try s.step()
      }
      return ShiftDeletion(shift: found, companions: companions, sessionRows: try sessionRowsOnlyNamed(byShift: id))
    }
  }

  /// Shifts marked for deletion and not yet gone (a restart or a power cut came in
  /// between), oldest first: a lookup in the partial index, whatever the history.
  public func shiftsBeingDeleted() throws(StoreError) -> [Int64] {
    try database.withStatement("SELECT id FROM shifts WHERE deleting = 1 ORDER BY id") {
      (s) throws(StoreError) -> [Int64] in
      var ids: [Int64] = []
      while try s.step() { ids.append(s.int64(0)) }
      return ids
    }
  }

  /// One step of `deletion`, in one transaction that deletes at most `rowLimit` rows.
  /// Returns the rows it deleted. The open shift's live figure is not disturbed: these rows
  /// are no reader's (`RowWatch.accountingForDeletes`).
  @discardableResult
  public func continueDeleting(_ deletion: inout ShiftDeletion, rowLimit: Int) throws(StoreError) -> Int {
    let limit = max(1, rowLimit)
    let id = deletion.shift.id
    switch deletion.stage {
    case .samples:
      let deleted = try write("delete samples of shift \(id)") { () throws(StoreError) -> Int in
        try sampleRowWatch.accountingForDeletes { () throws(StoreError) -> Int in
          try database.withStatement(
            "DELETE FROM samples WHERE id IN (SELECT id FROM samples WHERE shift_id = ? ORDER BY id LIMIT ?)"
          ) { (s) throws(StoreError) -> Int in
            try s.bind(id, at: 1)
            try s.bind(Int64(limit), at: 2)
            try s.step()
            return database.changes
          }
        }
      }
      deletion.samplesDeleted += deleted
      if deleted < limit { deletion.stage = .captureSessions }
      return deleted
    case .captureSessions:
      let deleted = try deleteCaptureSessions(deletion.sessionRows, ofShift: id)
      deletion.captureSessionsDeleted += deleted
      deletion.stage = deletion.companions.isEmpty ? .shiftRow : .companion(index: 0, position: 0)
      return deleted
    case .companion(let index, let position):
      let companion = deletion.companions[index]
      let (deleted, next) = try write("delete rows of shift \(id) kept beside it") {
        () throws(StoreError) -> (Int, Int64?) in
        try companion.deleteRows(ofShift: id, from: position, limit: limit, in: currentTransaction)
      }
      deletion.companionRowsDeleted += deleted
      if let next {
        deletion.stage = .companion(index: index, position: next)
      } else {
        deletion.stage =
          index + 1 < deletion.companions.count ? .companion(index: index + 1, position: 0) : .shiftRow
      }
      return deleted
    case .shiftRow:
      try write("delete shift \(id)") { () throws(StoreError) in
        try database.withStatement("DELETE FROM shifts WHERE id = ? AND deleting = 1") { (s) throws(StoreError) in
          try s.bind(id, at: 1)
          try s.step()
        }
      }
      deletion.stage = .finished
      return 1
    case .finished:
      return 0
    }
  }

  // MARK: - Capture sessions

  /// The capture session rows that only shift `id`'s samples name, from its rows as they
  /// stand. A session has no shift of its own: one that ran on while one shift ended and the
  /// next began names rows of both. What makes this a few index lookups rather than a read
  /// of the history: capture has one session at a time, and both sessions and samples take
  /// ids in the order they are written, so the sessions a shift's rows name form a run of
  /// ids, and only the first can also be named by rows before the shift's and only the last
  /// by rows after them (imported rows name none).
  func sessionRowsOnlyNamed(byShift id: Int64) throws(StoreError) -> ClosedRange<Int64>? {
    let sessionOfShift = "SELECT capture_session FROM samples WHERE shift_id = ? AND capture_session IS NOT NULL"
    guard let first = try int64(sessionOfShift + " ORDER BY id LIMIT 1", id),
      let last = try int64(sessionOfShift + " ORDER BY id DESC LIMIT 1", id),
      let firstRow = try int64("SELECT min(id) FROM samples WHERE shift_id = ?", id),
      let lastRow = try int64("SELECT max(id) FROM samples WHERE shift_id = ?", id)
    else { return nil }
    let before = try int64(
      "SELECT capture_session FROM samples WHERE id < ? AND capture_session IS NOT NULL ORDER BY id DESC LIMIT 1",
      firstRow)
    let after = try int64(
      "SELECT capture_session FROM samples WHERE id > ? AND capture_session IS NOT NULL ORDER BY id LIMIT 1", lastRow)
    let lowest = first == before ? first + 1 : first
    let highest = last == after ? last - 1 : last
    return lowest <= highest ? lowest...highest : nil
  }

  /// Deletes the ended sessions of `rows` (a running one is never deleted: capture may still
  /// write into it). Their samples are gone, and no other row names them, so SQLite's check
  /// of each (a read of every sample: no index names sessions) is skipped.
  private func deleteCaptureSessions(_ rows: ClosedRange<Int64>?, ofShift id: Int64) throws(StoreError) -> Int {
    guard let rows else { return 0 }
    defer { forgetCachedRows() }
    return try database.withoutForeignKeyChecks { () throws(StoreError) -> Int in
      try write("delete capture sessions of shift \(id)") { () throws(StoreError) -> Int in
        try database.withStatement(
          "DELETE FROM capture_sessions WHERE id BETWEEN ? AND ? AND ended_at_ms IS NOT NULL"
        ) { (s) throws(StoreError) -> Int in
          try s.bind(rows.lowerBound, at: 1)
          try s.bind(rows.upperBound, at: 2)
          try s.step()
          return database.changes
        }
      }
    }
  }

  // MARK: - Rows

  /// Shift `id` whether or not it is being deleted.
  private func anyShift(id: Int64) throws(StoreError) -> StoredShift? {
    try database.withStatement("SELECT \(Self.shiftColumns) FROM shifts WHERE id = ?") {
      (s) throws(StoreError) -> StoredShift? in
      try s.bind(id, at: 1)
      return try s.step() ? Self.shift(from: s) : nil
    }
  }

  private func int64(_ sql: String, _ value: Int64) throws(StoreError) -> Int64? {
    try database.withStatement(sql) { (s) throws(StoreError) -> Int64? in
      try s.bind(value, at: 1)
      return try s.step() ? s.optionalInt64(0) : nil
    }
  }
}
