import FoundationEssentials
import OfficeCore

/// Writes a worker's batches: every message of a batch in one transaction, the samples and
/// the ledger by COPY, and, when any of their keys is there already, through this
/// connection's staging tables and `INSERT ... SELECT ... ON CONFLICT DO NOTHING`, so a
/// redelivered message, or a sample sent again in a new message, changes nothing. When
/// this returns, the batch is committed and may be acknowledged; when it throws, nothing
/// of it is.
public final class BatchWriter {
  public let connection: PostgresConnection
  public let worker: Int
  let topics: BoxTopics
  private var partitions = PartitionCache()
  private var knownVehicles: Set<String> = []

  public init(connection: PostgresConnection, worker: Int, topics: BoxTopics) throws(PostgresError) {
    self.connection = connection
    self.worker = worker
    self.topics = topics
    try connection.execute(
      """
      CREATE TEMP TABLE IF NOT EXISTS staging_samples (vehicle text, shift bigint, time timestamptz,
        position geometry, accuracy real, speed real, course real, held boolean, accuracy_assumed boolean,
        dated_by_arrival boolean, capture_session text, sequence bigint)
        ON COMMIT DELETE ROWS;
      CREATE TEMP TABLE IF NOT EXISTS staging_ledger (vehicle text, sequence bigint, queued_at timestamptz,
        shift bigint, kind text, key text, bytes integer, samples integer, received_at timestamptz, worker integer)
        ON COMMIT DELETE ROWS;
      """)
    try partitions.reload(connection)
  }

  /// The worker's row in `workers`, brought up to date in the batch's own transaction.
  public struct WorkerRow: Sendable {
    public var messagesPerSecond: Double
    public var samplesPerSecond: Double
    public init(messagesPerSecond: Double, samplesPerSecond: Double) {
      self.messagesPerSecond = messagesPerSecond
      self.samplesPerSecond = samplesPerSecond
    }
  }

  public func write(_ batch: [InboundMessage], workerRow: WorkerRow? = nil) throws(PostgresError) -> BatchOutcome {
    let rows = BatchRows(batch, topics: topics, worker: worker)
    try partitions.ensure(rows.partitions, connection)
    do {
      return try transaction(rows, workerRow: workerRow)
    } catch  where error.sqlState == "23514" && error.message.contains("no partition") {
      // A month was detached since this worker read the partitions: read them again, and
      // the function makes the month anew.
      try partitions.reload(connection)
      try partitions.ensure(rows.partitions, connection)
      return try transaction(rows, workerRow: workerRow)
    }
  }

  private func transaction(_ rows: BatchRows, workerRow: WorkerRow?) throws(PostgresError) -> BatchOutcome {
    var outcome = BatchOutcome()
    outcome.rejected = rows.rejected
    outcome.newestQueuedAt = rows.newestQueuedAt
    try connection.execute("BEGIN")
    do {
      let newVehicles = rows.vehicles.subtracting(knownVehicles)
      if !newVehicles.isEmpty {
        // Sorted, so two workers meeting the same new vehicles lock them in one order.
        try connection.execute(
          "INSERT INTO vehicles (vehicle) SELECT v FROM unnest($1::text[]) v ORDER BY v ON CONFLICT DO NOTHING",
          [Self.textArray(newVehicles.sorted())])
      }
      try copyRows(rows, into: &outcome)
      for statement in rows.statements { try connection.execute(statement.sql, statement.parameters) }
      if let workerRow { try updateWorkerRow(outcome, workerRow) }
      try connection.execute("COMMIT")
    } catch {
      _ = try? connection.execute("ROLLBACK")
      throw error
    }
    knownVehicles.formUnion(rows.vehicles)
    return outcome
  }

  static let sampleColumns =
    "vehicle, shift, time, position, accuracy, speed, course, held, accuracy_assumed, dated_by_arrival, "
    + "capture_session, sequence"
  static let ledgerColumns = "vehicle, sequence, queued_at, shift, kind, key, bytes, samples, received_at, worker"

  /// The samples and the ledger's keys: COPYed straight into their tables, which costs what
  /// a raw COPY costs, under a savepoint; when a key is there already (a redelivery, a
  /// sample sent again), that is undone and the same rows go through the staging tables
  /// and `INSERT ... ON CONFLICT DO NOTHING`, which skips them.
  private func copyRows(_ rows: BatchRows, into outcome: inout BatchOutcome) throws(PostgresError) {
    try connection.execute("SAVEPOINT direct")
    do {
      if !rows.samples.isEmpty {
        try connection.copy("COPY samples (\(Self.sampleColumns)) FROM STDIN", data: rows.samples.bytes)
      }
      if !rows.ledger.isEmpty {
        try connection.copy("COPY ledger (\(Self.ledgerColumns)) FROM STDIN", data: rows.ledger.bytes)
      }
      try connection.execute("RELEASE SAVEPOINT direct")
      outcome.samples = rows.samplesSent
      outcome.messages = rows.messages
      return
    } catch  where error.sqlState == "23505" {
      try connection.execute("ROLLBACK TO SAVEPOINT direct")
    }
    if !rows.samples.isEmpty {
      let inserted = try staged(rows.samples, into: "samples", columns: Self.sampleColumns)
      outcome.samples = inserted
      outcome.duplicateSamples = rows.samplesSent - inserted
    }
    if !rows.ledger.isEmpty {
      let inserted = try staged(rows.ledger, into: "ledger", columns: Self.ledgerColumns)
      outcome.messages = inserted
      outcome.duplicates = rows.messages - inserted
    }
  }

  /// `rows` through the connection's `staging_TABLE` into TABLE, those whose key is there
  /// already skipped; how many went in.
  private func staged(_ rows: CopyText, into table: String, columns: String) throws(PostgresError) -> Int {
    try connection.copy("COPY staging_\(table) FROM STDIN", data: rows.bytes)
    return try connection.execute(
      "INSERT INTO \(table) (\(columns)) SELECT * FROM staging_\(table) ON CONFLICT DO NOTHING"
    ).affectedRows
  }

  private func updateWorkerRow(_ outcome: BatchOutcome, _ row: WorkerRow) throws(PostgresError) {
    try connection.execute(
      """
      UPDATE workers SET messages = messages + $2, samples = samples + $3, rejected = rejected + $4,
        batches = batches + 1, messages_per_second = $5, samples_per_second = $6, heartbeat_at = clock_timestamp(),
        last_commit_at = clock_timestamp(), broker_connected = true,
        lag_s = coalesce(extract(epoch FROM clock_timestamp() - $7::timestamptz)::double precision, lag_s)
      WHERE worker = $1
      """,
      [
        String(worker), String(outcome.messages), String(outcome.samples), String(outcome.rejectedCount),
        "\(row.messagesPerSecond)", "\(row.samplesPerSecond)", BatchRows.time(outcome.newestQueuedAt),
      ])
  }

  /// A text[] literal: each element double-quoted, with its quotes and backslashes escaped.
  static func textArray(_ values: [String]) -> String {
    "{"
      + values.map { value in
        "\"" + value.replacing("\\", with: "\\\\").replacing("\"", with: "\\\"") + "\""
      }.joined(separator: ",") + "}"
  }
}
