/// How far a rebuild's copy is, kept in the copy itself (one row, written in the same
/// transaction as the rows it describes), so a copy cut short resumes where it stopped.
enum RebuildState {
  static let table = "dashpilot_rebuild"

  static func create(_ database: Database) throws(StoreError) {
    try database.execute(
      """
      CREATE TABLE \(table) (
        singleton INTEGER PRIMARY KEY CHECK (singleton = 1),
        purpose TEXT NOT NULL,
        copied_samples INTEGER NOT NULL,
        reached_row INTEGER NOT NULL,
        last_live_row INTEGER NOT NULL,
        -- "first-last" ranges, comma-separated.
        unreadable TEXT NOT NULL,
        tail_unreadable INTEGER NOT NULL,
        copied INTEGER NOT NULL
      )
      """)
  }

  /// The copy's state; a new copy starts with `purpose` and nothing copied.
  static func read(_ database: Database, purpose: StoreRebuild.Purpose) throws(StoreError) -> StoreRebuild.Progress {
    try database.withStatement(
      "SELECT purpose, copied_samples, reached_row, last_live_row, unreadable, tail_unreadable, copied FROM \(table)"
    ) { (s) throws(StoreError) -> StoreRebuild.Progress in
      guard try s.step() else {
        return StoreRebuild.Progress(
          purpose: purpose, copiedSamples: 0, reachedRowID: 0, lastLiveRowID: 0, unreadable: [],
          tailUnreadable: false, isCopied: false)
      }
      return StoreRebuild.Progress(
        purpose: StoreRebuild.Purpose(rawValue: s.text(0) ?? "") ?? purpose, copiedSamples: Int(s.int64(1)),
        reachedRowID: s.int64(2), lastLiveRowID: s.int64(3), unreadable: ranges(s.text(4) ?? ""),
        tailUnreadable: s.int64(5) != 0, isCopied: s.int64(6) != 0)
    }
  }

  static func write(_ progress: StoreRebuild.Progress, _ database: Database) throws(StoreError) {
    try database.withStatement(
      """
      INSERT OR REPLACE INTO \(table)
        (singleton, purpose, copied_samples, reached_row, last_live_row, unreadable, tail_unreadable, copied)
      VALUES (1, ?, ?, ?, ?, ?, ?, ?)
      """
    ) { (s) throws(StoreError) in
      try s.bind(progress.purpose.rawValue, at: 1)
      try s.bind(Int64(progress.copiedSamples), at: 2)
      try s.bind(progress.reachedRowID, at: 3)
      try s.bind(progress.lastLiveRowID, at: 4)
      try s.bind(progress.unreadable.map { "\($0.lowerBound)-\($0.upperBound)" }.joined(separator: ","), at: 5)
      try s.bind(Int64(progress.tailUnreadable ? 1 : 0), at: 6)
      try s.bind(Int64(progress.isCopied ? 1 : 0), at: 7)
      try s.step()
    }
  }

  private static func ranges(_ text: String) -> [ClosedRange<Int64>] {
    text.split(separator: ",").compactMap { part in
      let bounds = part.split(separator: "-").compactMap { Int64($0) }
      guard bounds.count == 2, bounds[0] <= bounds[1] else { return nil }
      return bounds[0]...bounds[1]
    }
  }
}
