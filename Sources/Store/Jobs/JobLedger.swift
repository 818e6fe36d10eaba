import DashPilotCore
import FoundationEssentials

/// The jobs the office assigned, in the store's file: the queue survives a restart, an id
/// is taken once, and a shift's done jobs are read back with it (`shift show`, the report,
/// the uplink's shift message). A job's row is written in the transaction that tells what
/// happened to it, so what the office heard and what the file holds agree.
public struct JobLedger: Sendable {
  public init() {}

  /// Done jobs kept at least, newest first: a year of a busy van's deliveries. Older ones go
  /// as new ones are done.
  public static let keptDone = 20_000

  public static let schema = SchemaExtension(
    name: "jobs",
    migrations: [
      SchemaExtension.Migration(
        version: 1,
        statements: [
          """
          CREATE TABLE jobs (
            seq INTEGER PRIMARY KEY,
            id TEXT NOT NULL UNIQUE,
            -- The job as the office sent it (JSON): compared whole when the id comes again.
            job TEXT NOT NULL,
            state TEXT NOT NULL CHECK (state IN ('queued', 'arrived', 'visited', 'not_reached', 'cancelled')),
            shift_id INTEGER,
            arrival_ms INTEGER,
            departure_ms INTEGER,
            stop_latitude REAL,
            stop_longitude REAL,
            distance_m REAL,
            reported_throughout INTEGER,
            within_window INTEGER,
            stop_end TEXT
          )
          """,
          "CREATE INDEX jobs_open ON jobs (seq) WHERE state IN ('queued', 'arrived')",
          "CREATE INDEX jobs_by_shift ON jobs (shift_id) WHERE shift_id IS NOT NULL",
        ])
    ])

  private static let columns =
    "job, state, shift_id, arrival_ms, departure_ms, stop_latitude, stop_longitude, distance_m, reported_throughout, within_window, stop_end"

  /// The job under `id`, whatever its state.
  public func job(id: String, in transaction: StoreTransaction) throws(StoreError) -> StoredJob? {
    try jobs("SELECT \(Self.columns) FROM jobs WHERE id = ?", [.text(id)], in: transaction).first
  }

  /// Records `job` as queued; false (nothing written) when its id is taken.
  public func assign(_ job: DeliveryJob, in transaction: StoreTransaction) throws(StoreError) -> Bool {
    try transaction.query(
      "INSERT OR IGNORE INTO jobs (id, job, state) VALUES (?, ?, 'queued')", [.text(job.id), .text(Self.text(job))])
    return transaction.changes == 1
  }

  /// Writes where job `stored.job.id` stands now.
  public func update(_ stored: StoredJob, in transaction: StoreTransaction) throws(StoreError) {
    let evidence = stored.evidence
    try transaction.query(
      """
      UPDATE jobs SET state = ?, shift_id = ?, arrival_ms = ?, departure_ms = ?, stop_latitude = ?,
        stop_longitude = ?, distance_m = ?, reported_throughout = ?, within_window = ?, stop_end = ?
      WHERE id = ?
      """,
      [
        .text(stored.state.rawValue), stored.shift.map(SQLValue.integer) ?? .null,
        evidence.map { .integer(Self.milliseconds($0.arrival)) } ?? .null,
        evidence.map { .integer(Self.milliseconds($0.departure)) } ?? .null,
        evidence.map { .real($0.position.latitude) } ?? .null, evidence.map { .real($0.position.longitude) } ?? .null,
        evidence.map { .real($0.distance) } ?? .null,
        evidence.map { .integer($0.receiverReportedThroughout ? 1 : 0) } ?? .null,
        evidence?.withinWindow.map { .integer($0 ? 1 : 0) } ?? .null, evidence.map { .text($0.stopEnd) } ?? .null,
        .text(stored.job.id),
      ])
    guard !stored.state.isOpen else { return }
    try transaction.query(
      """
      DELETE FROM jobs WHERE state NOT IN ('queued', 'arrived') AND seq < (
        SELECT seq FROM jobs WHERE state NOT IN ('queued', 'arrived') ORDER BY seq DESC LIMIT 1 OFFSET ?)
      """, [.integer(Int64(Self.keptDone - 1))])
  }

  /// The queue: the jobs not done, in the order they came.
  public func open(in transaction: StoreTransaction) throws(StoreError) -> [StoredJob] {
    try jobs(
      "SELECT \(Self.columns) FROM jobs WHERE state IN ('queued', 'arrived') ORDER BY seq", [], in: transaction)
  }

  /// The jobs done in shift `id`: those visited, in the order the car arrived, then those it
  /// never reached, in the order they came. Empty for a file that never had a job.
  public func done(inShift id: Int64, in transaction: StoreTransaction) throws(StoreError) -> [StoredJob] {
    var exists = false
    try transaction.query("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'jobs'") { _ in exists = true }
    guard exists else { return [] }
    return try jobs(
      """
      SELECT \(Self.columns) FROM jobs WHERE shift_id = ? AND state IN ('visited', 'not_reached')
      ORDER BY state = 'not_reached', arrival_ms, seq
      """, [.integer(id)], in: transaction)
  }

  /// The last shift a job was visited or found unreached in; nil before any.
  public func lastShiftWithDoneJobs(in transaction: StoreTransaction) throws(StoreError) -> Int64? {
    var shift: Int64?
    try transaction.query("SELECT MAX(shift_id) FROM jobs WHERE state IN ('visited', 'not_reached')") { row in
      shift = row.optionalInt64(0)
    }
    return shift
  }

  private func jobs(_ sql: String, _ bindings: [SQLValue], in transaction: StoreTransaction) throws(StoreError)
    -> [StoredJob]
  {
    var found: [StoredJob] = []
    try transaction.query(sql, bindings) { (row) throws(StoreError) in
      guard let text = row.text(0), let job = Self.job(text),
        let state = row.text(1).flatMap(StoredJob.State.init(rawValue:))
      else { throw .invalidSetting("a job's row in the file cannot be read") }
      var evidence: StoredJob.Evidence?
      if let arrival = row.optionalInt64(3), let departure = row.optionalInt64(4) {
        evidence = StoredJob.Evidence(
          arrival: Self.date(arrival), departure: Self.date(departure),
          position: GeoCoordinate(latitude: row.double(5), longitude: row.double(6)), distance: row.double(7),
          receiverReportedThroughout: row.int64(8) == 1, withinWindow: row.optionalInt64(9).map { $0 == 1 },
          stopEnd: row.text(10) ?? "")
      }
      found.append(StoredJob(job: job, state: state, shift: row.optionalInt64(2), evidence: evidence))
    }
    return found
  }

  private static func text(_ job: DeliveryJob) -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    encoder.dateEncodingStrategy = .millisecondsSince1970
    return (try? encoder.encode(job)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
  }

  private static func job(_ text: String) -> DeliveryJob? {
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .millisecondsSince1970
    return try? decoder.decode(DeliveryJob.self, from: Data(text.utf8))
  }

  private static func milliseconds(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 * 1000).rounded()) }
  private static func date(_ milliseconds: Int64) -> Date { Date(timeIntervalSince1970: Double(milliseconds) / 1000) }
}
