import FoundationEssentials

/// What the file holds, for the rate at which recording fills the card: counted on a read
/// connection of its own (`HistoryReader`), because counting the samples reads an index
/// entry for every one of them, time in proportion to the history.
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

/// A read-only connection to the store's file, for the thread that counts its history (WAL:
/// it never waits for the writer, nor the writer for it). Use it from one thread.
public final class HistoryReader {
  private let database: Database

  public init(path: String) throws(StoreError) {
    database = try Database(path: path, readOnly: true)
  }

  /// The figures as one snapshot; `since` starts the recent window.
  public func figures(since: Date) throws(StoreError) -> HistoryFigures {
    let sinceMilliseconds = Int64((since.timeIntervalSince1970 * 1_000).rounded(.down))
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
