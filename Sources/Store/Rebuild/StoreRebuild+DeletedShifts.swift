extension StoreRebuild {
  /// Drops from the copy the samples of shifts the live file no longer holds: retention
  /// deleted them after their rows were copied, and the copy's other tables are replaced
  /// whole from the live file's, so without this they would stay behind, naming a shift
  /// that is gone. One index seek per shift the copy holds, then the rows of each deleted
  /// one; a live file whose shifts cannot be read (a salvage) keeps the copy as it is.
  /// Returns the rows dropped.
  func dropRowsOfDeletedShifts() throws(StoreError) -> Int {
    var dropped = 0
    var after = Int64.min
    do {
      while let shift = try nextShift(after: after) {
        after = shift
        let live = try database.withStatement("SELECT EXISTS (SELECT 1 FROM live.shifts WHERE id = ?1)") {
          (s) throws(StoreError) -> Bool in
          try s.bind(shift, at: 1)
          return try s.step() && s.int64(0) == 1
        }
        guard !live else { continue }
        dropped += try database.writeTransaction("drop the rows of deleted shift \(shift) from the rebuild") {
          () throws(StoreError) -> Int in
          try database.withStatement("DELETE FROM main.samples WHERE shift_id = ?1") { (s) throws(StoreError) -> Int in
            try s.bind(shift, at: 1)
            try s.step()
            return database.changes
          }
        }
      }
    } catch .corrupt {
      return dropped
    }
    return dropped
  }

  private func nextShift(after: Int64) throws(StoreError) -> Int64? {
    try database.withStatement("SELECT shift_id FROM main.samples WHERE shift_id > ?1 ORDER BY shift_id LIMIT 1") {
      (s) throws(StoreError) -> Int64? in
      try s.bind(after, at: 1)
      return try s.step() ? s.int64(0) : nil
    }
  }
}
