// What a run of the office benchmark measured, read out of its database.
import Foundation
import Office
import TestSupport

extension OfficeBench {
  /// Publish-to-commit: from when a box queued the message (its `queued_at`, the
  /// simulator's wall clock at publishing) to when the office's transaction stored it (the
  /// ledger's `committed_at`, its last statement's clock), one machine's clock for both.
  static func latencies(_ connection: PostgresConnection, name: String, report: inout BenchReport) throws {
    let row = try connection.execute(
      """
      SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM committed_at - queued_at)),
        percentile_cont(0.99) WITHIN GROUP (ORDER BY extract(epoch FROM committed_at - queued_at))
      FROM ledger
      """)
    report.record(
      "\(name).publish_to_commit_p50", ((Double(row.value(0, 0) ?? "") ?? -1) * 10_000).rounded() / 10, "ms")
    report.record(
      "\(name).publish_to_commit_p99", ((Double(row.value(0, 1) ?? "") ?? -1) * 10_000).rounded() / 10, "ms")
  }

  /// Rows lost (a message published but not in the ledger, a sample not stored) and rows
  /// twice (a key or a sample stored more than once), against what the simulator sent.
  static func lostAndTwice(
    _ connection: PostgresConnection, expected: Int, name: String, report: inout BenchReport
  ) throws {
    let row = try connection.execute(
      """
      SELECT (SELECT count(*) FROM ledger), (SELECT count(*) FROM (SELECT DISTINCT vehicle, sequence FROM ledger) k),
        (SELECT count(*) FROM samples), (SELECT count(*) FROM (SELECT DISTINCT vehicle, shift, time FROM samples) s)
      """)
    let keys = Int(row.value(0, 0) ?? "") ?? -1
    let distinctKeys = Int(row.value(0, 1) ?? "") ?? -1
    let samples = Int(row.value(0, 2) ?? "") ?? -1
    let distinctSamples = Int(row.value(0, 3) ?? "") ?? -1
    report.record("\(name).lost", Double(max(expected - distinctKeys, 0) + max(expected - distinctSamples, 0)), "rows")
    report.record("\(name).twice", Double((keys - distinctKeys) + (samples - distinctSamples)), "rows")
  }

  /// What one stored message costs on disk: its sample and its ledger entry with every
  /// index (the samples' key and GiST, the ledger's key), after VACUUM; docs/office.md
  /// multiplies it out to a fleet's years.
  static func bytesPerMessage(_ connection: PostgresConnection, messages: Int, report: inout BenchReport) throws {
    try connection.execute("VACUUM samples")
    try connection.execute("VACUUM ledger")
    let samples =
      try connection.execute(
        "SELECT sum(pg_total_relation_size(relid)) FROM pg_partition_tree('samples')"
      ).value(0, 0).flatMap(Double.init) ?? 0
    let ledger =
      try connection.execute(
        "SELECT sum(pg_total_relation_size(relid)) FROM pg_partition_tree('ledger')"
      ).value(0, 0).flatMap(Double.init) ?? 0
    report.record("office.sample_bytes_per_message", (samples / Double(messages)).rounded(), "B")
    report.record("office.ledger_bytes_per_message", (ledger / Double(messages)).rounded(), "B")
  }

  /// The office's rows of a run (each message's sample and ledger entry) COPYed raw,
  /// server-side, into a fresh database of the same schema, in one transaction: messages'
  /// rows a second, to set beside the office's messages a second.
  static func rawCopy(_ rig: OfficeBenchRig, from database: String, rows: Int, label: String) throws -> Double {
    let source = try PostgresConnection(database)
    let samples = rig.postgres.directory.appendingPathComponent("copy-\(label)-samples.txt").path
    let ledger = rig.postgres.directory.appendingPathComponent("copy-\(label)-ledger.txt").path
    try source.execute("COPY (SELECT * FROM samples) TO '\(samples)'")
    try source.execute("COPY (SELECT * FROM ledger) TO '\(ledger)'")
    let target = try PostgresConnection(try rig.database("bench_copy_\(label)"))
    let started = ProcessFigures.now()
    try target.execute("BEGIN; COPY samples FROM '\(samples)'; COPY ledger FROM '\(ledger)'; COMMIT")
    let seconds = ProcessFigures.now() - started
    try? FileManager.default.removeItem(atPath: samples)
    try? FileManager.default.removeItem(atPath: ledger)
    return Double(rows) / seconds
  }
}
