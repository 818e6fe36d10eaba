import Foundation
import TestSupport

/// Every stored sample as another process reads it (sqlite3 -readonly), keyed by row id,
/// each row with all its columns, so "nothing committed was lost" compares values, not
/// just counts.
struct DaemonStoreSnapshot: Equatable {
  static let columns =
    "id, shift_id, capture_session, fix_time_ms, latitude_e7, longitude_e7, horizontal_accuracy_cm, speed_cm_s, course_cdeg"

  var rows: [Int: String]

  init(database: String) throws {
    var rows: [Int: String] = [:]
    for line in try DaemonDatabaseProbe.query(database, "SELECT \(Self.columns) FROM samples ORDER BY id") {
      guard let id = line.split(separator: "|").first.flatMap({ Int($0) }) else { continue }
      rows[id] = line
    }
    self.rows = rows
  }

  /// The rows of `self` that `later` no longer holds, or holds with other values.
  func missingOrChanged(in later: DaemonStoreSnapshot) -> [String] {
    rows.keys.sorted().compactMap { id in later.rows[id] == rows[id] ? nil : rows[id] }
  }

  /// `session_key|end_reason` of every capture session, in the order they began.
  static func sessions(_ database: String) throws -> [String] {
    try DaemonDatabaseProbe.query(
      database, "SELECT session_key, coalesce(end_reason, '-') FROM capture_sessions ORDER BY id")
  }
}

extension DaemonUnderTest {
  /// How many lines of the daemon's log (its stderr: the journal falls back to it outside
  /// systemd) contain `text`.
  func logLines(containing text: String) -> Int {
    log.split(separator: "\n").filter { $0.contains(text) }.count
  }
}
