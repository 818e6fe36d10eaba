import DashPilotCore
import FoundationEssentials

/// The monthly partitions a worker knows exist, so that a batch asks PostgreSQL to make one
/// only for a month it has not seen (`office_month_partition`, under the function's own
/// lock, in a transaction of its own before the batch's: making a partition locks its
/// parent, which the batch must not hold while it waits).
struct PartitionCache {
  /// The tables partitioned by month, and the column each is partitioned by.
  static let tables = ["samples", "events", "ledger"]

  /// "samples 2024-05".
  private(set) var known: Set<String> = []

  static func month(of date: Date) -> String {
    let days = Int((date.timeIntervalSince1970 / 86_400).rounded(.down))
    let civil = CivilCalendar.civilFromDays(days)
    return "\(civil.year)-\(civil.month < 10 ? "0" : "")\(civil.month)"
  }

  /// Reads the partitions attached now (`PARENT_yYYYYmMM`, and `_rN` for a month made again
  /// after it was detached).
  mutating func reload(_ connection: PostgresConnection) throws(PostgresError) {
    let result = try connection.execute(
      """
      SELECT p.relname, c.relname FROM pg_inherits i
      JOIN pg_class c ON c.oid = i.inhrelid JOIN pg_class p ON p.oid = i.inhparent
      WHERE p.relname IN ('samples', 'events', 'ledger') AND p.relnamespace = c.relnamespace
      """)
    known = []
    for row in result.rows {
      guard let parent = row[0], let name = row[1] else { continue }
      let suffix = name.dropFirst(parent.count + 2)  // "_y"
      guard suffix.count >= 7, let year = Int(suffix.prefix(4)), suffix.dropFirst(4).first == "m",
        let month = Int(suffix.dropFirst(5).prefix(2))
      else { continue }
      known.insert("\(parent) \(year)-\(month < 10 ? "0" : "")\(month)")
    }
  }

  /// Makes every partition `needed` names ("TABLE at DATE") that is not known yet.
  mutating func ensure(_ needed: [(table: String, date: Date)], _ connection: PostgresConnection)
    throws(PostgresError)
  {
    var asked: Set<String> = []
    for (table, date) in needed {
      let key = "\(table) \(Self.month(of: date))"
      guard !known.contains(key), asked.insert(key).inserted else { continue }
      try connection.execute(
        "SELECT office_month_partition($1::regclass, $2::timestamptz)", [table, UTCTimestamp.string(date)])
      known.insert(key)
    }
  }
}
