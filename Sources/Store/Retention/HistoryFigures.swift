import FoundationEssentials

/// What the file holds, for the rate at which recording fills the card: counted on a read
/// connection of its own (`SampleStore.historyFigures`), because counting the samples reads
/// an index entry for every one of them, time in proportion to the history.
public struct HistoryFigures: Sendable, Hashable {
  /// Bytes of the file's pages in use (free pages not counted).
  public var usedBytes: Int64
  public var sampleRows: Int64
  /// Rows of the shifts that started at or after the figures' `since`, and of the open shift.
  public var recentSampleRows: Int64
  /// The earliest start of a shift the file holds; nil when it holds none.
  public var firstShiftStart: Date?

  public init(usedBytes: Int64, sampleRows: Int64, recentSampleRows: Int64, firstShiftStart: Date?) {
    self.usedBytes = usedBytes
    self.sampleRows = sampleRows
    self.recentSampleRows = recentSampleRows
    self.firstShiftStart = firstShiftStart
  }
}

extension SampleStore {
  /// The figures as one snapshot, `since` starting the recent window. Counting the samples
  /// takes time in proportion to the history: call it on a reader of its own
  /// (`init(readingFrom:)`), off the loop.
  public func historyFigures(since: Date) throws(StoreError) -> HistoryFigures {
    let sinceMilliseconds = try EncodedSample.milliseconds(since, role: "window start")
    return try database.readTransaction { () throws(StoreError) -> HistoryFigures in
      let pages = try database.scalarInt64("PRAGMA page_count") ?? 0
      let free = try database.scalarInt64("PRAGMA freelist_count") ?? 0
      let pageSize = try database.scalarInt64("PRAGMA page_size") ?? 0
      let rows = try database.scalarInt64("SELECT count(*) FROM samples") ?? 0
      let recent = try database.withStatement(
        """
        SELECT count(*) FROM samples WHERE shift_id IN
          (SELECT id FROM shifts WHERE deleting = 0 AND (started_at_ms >= ? OR ended_at_ms IS NULL))
        """
      ) { (s) throws(StoreError) -> Int64 in
        try s.bind(sinceMilliseconds, at: 1)
        return try s.step() ? s.int64(0) : 0
      }
      let first = try database.scalarInt64("SELECT min(started_at_ms) FROM shifts WHERE deleting = 0")
      return HistoryFigures(
        usedBytes: (pages - free) * pageSize, sampleRows: rows, recentSampleRows: recent,
        firstShiftStart: first.map(EncodedSample.date(milliseconds:)))
    }
  }
}
