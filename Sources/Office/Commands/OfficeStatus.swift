import FoundationEssentials
import OfficeCore

/// Reads `status` out of the database: the workers' own rows, the holes view, the rejected
/// table, and PostgreSQL's statistics for the sizes (never a count of every sample).
public enum OfficeStatus {
  public static func read(_ connection: PostgresConnection) throws(PostgresError) -> OfficeStatusReport {
    func int(_ text: String?) -> Int64 { text.flatMap { Int64($0) } ?? 0 }
    func double(_ text: String?) -> Double? { text.flatMap { Double($0) } }
    let totals = try connection.execute(
      """
      SELECT (SELECT max(version) FROM office_schema), (SELECT count(*) FROM vehicles),
        (SELECT count(*) FROM shifts),
        (SELECT coalesce(sum(greatest(c.reltuples, 0)), 0)::bigint FROM pg_inherits i
          JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = 'samples'::regclass)
      """)
    let workers = try connection.execute(
      """
      SELECT worker, host, pid, client_id, broker_connected, extract(epoch FROM clock_timestamp() - heartbeat_at),
        messages, samples, rejected, messages_per_second, samples_per_second,
        extract(epoch FROM clock_timestamp() - last_commit_at), lag_s, last_error
      FROM workers ORDER BY worker
      """
    ).rows.map { row in
      OfficeStatusReport.Worker(
        index: Int(int(row[0])), host: row[1] ?? "", pid: Int(int(row[2])), clientID: row[3] ?? "",
        brokerConnected: row[4] == "t", heartbeatAge: double(row[5]) ?? .infinity, messages: int(row[6]),
        samples: int(row[7]), rejected: int(row[8]), messagesPerSecond: double(row[9]) ?? 0,
        samplesPerSecond: double(row[10]) ?? 0, lastCommitAge: double(row[11]), lag: double(row[12]),
        lastError: row[13])
    }
    let rejectedCodes = try connection.execute("SELECT code, count(*) FROM rejected GROUP BY code").rows
    let lastRejected = try connection.execute(
      """
      SELECT topic, code || ': ' || reason, extract(epoch FROM clock_timestamp() - received_at)
      FROM rejected ORDER BY received_at DESC LIMIT 1
      """)
    var byCode: [String: Int] = [:]
    for row in rejectedCodes { byCode[row[0] ?? "", default: 0] += Int(int(row[1])) }
    return OfficeStatusReport(
      schemaVersion: Int(int(totals.value(0, 0))), vehicles: Int(int(totals.value(0, 1))),
      samplesEstimate: int(totals.value(0, 3)), shifts: Int(int(totals.value(0, 2))), holes: try holes(connection),
      rejected: OfficeStatusReport.Rejected(
        total: byCode.values.reduce(0, +), byCode: byCode, lastTopic: lastRejected.rows.first?[0] ?? nil,
        lastReason: lastRejected.rows.first?[1] ?? nil, lastAge: double(lastRejected.rows.first?[2] ?? nil)),
      workers: workers)
  }

  /// The holes, within 10 s: the view reads every ledger row, in key order.
  static func holes(_ connection: PostgresConnection) throws(PostgresError) -> OfficeStatusReport.Holes? {
    try connection.execute("BEGIN")
    defer { _ = try? connection.execute("ROLLBACK") }
    try connection.execute("SET LOCAL statement_timeout = '10s'")
    do {
      let row = try connection.execute(
        """
        SELECT count(*), count(DISTINCT vehicle), coalesce(sum(missing), 0),
          extract(epoch FROM max(age))
        FROM holes
        """)
      return OfficeStatusReport.Holes(
        count: Int(row.value(0, 0) ?? "0") ?? 0, vehicles: Int(row.value(0, 1) ?? "0") ?? 0,
        missing: Int64(row.value(0, 2) ?? "0") ?? 0, oldestAge: row.value(0, 3).flatMap { Double($0) })
    } catch  where error.sqlState == "57014" {
      return nil
    }
  }

  /// A connection string fit for a log line: any password's value hidden.
  public static func redacted(_ conninfo: String) -> String {
    var words = conninfo.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
    for index in words.indices where words[index].lowercased().hasPrefix("password=") {
      words[index] = "password=…"
    }
    var text = words.joined(separator: " ")
    // postgresql://user:secret@host/db
    if let scheme = text.firstRange(of: "://"), let at = text[scheme.upperBound...].firstIndex(of: "@"),
      let colon = text[scheme.upperBound..<at].firstIndex(of: ":")
    {
      text.replaceSubrange(text.index(after: colon)..<at, with: "…")
    }
    return text
  }
}
