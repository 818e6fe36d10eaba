import CSQLite
import DashPilotCore
import FoundationEssentials

/// One queued message, exactly as it will be published.
public struct OutboxEntry: Sendable, Hashable {
  /// The outbox's sequence: assigned in commit order, never reused, and part of the
  /// message's idempotency key.
  public var sequence: Int64
  public var topic: UplinkTopic
  public var shiftID: Int64?
  public var sampleCount: Int
  public var queuedAt: Date
  /// The JSON bytes published, fixed when the message was queued so every retry is
  /// byte-identical.
  public var payload: [UInt8]
}

/// Said when the bound made the outbox drop its oldest entries: these were never sent and
/// never will be. The caller logs `logLine`; dropping is never silent.
public struct OutboxOverflow: Sendable, Hashable {
  public var bound: Int
  public var droppedEntries: Int
  public var droppedSamples: Int
  public var firstDroppedSequence: Int64
  public var lastDroppedSequence: Int64
  public var oldestDroppedQueuedAt: Date

  public var logLine: String {
    let entries = droppedEntries == 1 ? "1 entry" : "\(droppedEntries) entries"
    let samples = droppedSamples == 1 ? "1 sample" : "\(droppedSamples) samples"
    let range =
      firstDroppedSequence == lastDroppedSequence
      ? "sequence \(firstDroppedSequence)" : "sequences \(firstDroppedSequence)-\(lastDroppedSequence)"
    return "uplink outbox full (bound \(bound) entries): dropped the oldest \(entries) (\(range), \(samples), "
      + "queued since \(UTCTimestamp.string(oldestDroppedQueuedAt) ?? "unknown")); they will never reach the broker"
  }
}

/// Store-and-forward queue in the box's own SQLite database. A message is enqueued in the
/// transaction that commits what it describes, so the fleet can never hear of a batch the
/// box rolled back, nor miss one it kept; it is removed only after the broker acknowledged
/// it. The outbox works on a connection it does not own (`sqlite3*`), used only from the
/// owner's thread.
public struct Outbox {
  public let connection: OpaquePointer
  public let encoder: UplinkEncoder
  /// The most entries kept; an enqueue beyond it drops the oldest and says so.
  public let bound: Int
  private var sql: SQLiteConnection { SQLiteConnection(handle: connection) }

  /// Creates the tables if missing; safe to run at every start.
  public static func createSchema(on connection: OpaquePointer) throws(OutboxError) {
    try SQLiteConnection(handle: connection).execute(schema, operation: "create the outbox tables")
  }

  public static let schema = """
    CREATE TABLE IF NOT EXISTS uplink_outbox (
      sequence INTEGER PRIMARY KEY,
      topic TEXT NOT NULL CHECK (topic IN ('samples', 'shift', 'session')),
      shift_id INTEGER,
      sample_count INTEGER NOT NULL DEFAULT 0,
      queued_at REAL NOT NULL,
      payload BLOB NOT NULL
    );
    CREATE TABLE IF NOT EXISTS uplink_outbox_sequence (
      singleton INTEGER PRIMARY KEY CHECK (singleton = 1),
      last_sequence INTEGER NOT NULL
    );
    INSERT OR IGNORE INTO uplink_outbox_sequence (singleton, last_sequence) VALUES (1, 0);
    """

  public init(connection: OpaquePointer, encoder: UplinkEncoder, bound: Int) {
    self.connection = connection
    self.encoder = encoder
    self.bound = max(1, bound)
  }

  /// Queues `message` on the caller's connection. Run it inside the transaction that
  /// commits what the message describes; without one it commits on its own (a savepoint
  /// keeps the sequence and the row together either way). Returns what the bound made it
  /// drop, if anything, for the caller to log.
  @discardableResult
  public func enqueue(_ message: UplinkMessage, queuedAt: Date) throws(OutboxError) -> OutboxOverflow? {
    try sql.execute("SAVEPOINT uplink_enqueue", operation: "begin an enqueue")
    do throws(OutboxError) {
      var sequence: Int64 = 0
      try sql.query(
        "UPDATE uplink_outbox_sequence SET last_sequence = last_sequence + 1 WHERE singleton = 1 RETURNING last_sequence",
        operation: "assign a sequence"
      ) { row in sequence = row.integer(0) }
      guard sequence > 0 else {
        throw OutboxError(operation: "assign a sequence", code: SQLITE_ERROR, message: "the sequence row is missing")
      }
      let payload = encoder.encode(message, sequence: sequence, queuedAt: queuedAt)
      try sql.query(
        "INSERT INTO uplink_outbox (sequence, topic, shift_id, sample_count, queued_at, payload) VALUES (?, ?, ?, ?, ?, ?)",
        [
          .integer(sequence), .text(message.topic.rawValue), message.shiftID.map(SQLiteValue.integer) ?? .null,
          .integer(Int64(message.sampleCount)), .real(queuedAt.timeIntervalSince1970), .blob(payload),
        ],
        operation: "queue a \(message.topic.rawValue) message")
      let overflow = try enforceBound()
      try sql.execute("RELEASE uplink_enqueue", operation: "finish an enqueue")
      return overflow
    } catch {
      try? sql.execute("ROLLBACK TO uplink_enqueue; RELEASE uplink_enqueue", operation: "undo an enqueue")
      throw error
    }
  }

  /// The oldest `limit` entries with a sequence above `after`, oldest first.
  public func peek(after: Int64 = 0, limit: Int) throws(OutboxError) -> [OutboxEntry] {
    var entries: [OutboxEntry] = []
    try sql.query(
      "SELECT sequence, topic, shift_id, sample_count, queued_at, payload FROM uplink_outbox WHERE sequence > ? ORDER BY sequence LIMIT ?",
      [.integer(after), .integer(Int64(max(0, limit)))], operation: "read queued messages"
    ) { row in
      guard let topic = UplinkTopic(rawValue: row.text(1)) else { return }
      entries.append(
        OutboxEntry(
          sequence: row.integer(0), topic: topic, shiftID: row.isNull(2) ? nil : row.integer(2),
          sampleCount: Int(row.integer(3)), queuedAt: Date(timeIntervalSince1970: row.real(4)), payload: row.blob(5)))
    }
    return entries
  }

  /// Removes an entry the broker acknowledged. False when it was already gone (dropped by
  /// the bound, or acknowledged twice).
  @discardableResult
  public func remove(sequence: Int64) throws(OutboxError) -> Bool {
    try sql.query(
      "DELETE FROM uplink_outbox WHERE sequence = ?", [.integer(sequence)], operation: "remove an acknowledged message")
    return sql.changes > 0
  }

  /// Removes several acknowledged entries in one statement (one commit, when the caller
  /// has no transaction open), so a burst of acknowledgements costs one disk sync rather
  /// than one each. Returns how many were still there.
  @discardableResult
  public func remove(sequences: [Int64]) throws(OutboxError) -> Int {
    guard !sequences.isEmpty else { return 0 }
    var removed = 0
    // SQLite's default limit on bound parameters is 32766; stay well under it.
    for start in stride(from: 0, to: sequences.count, by: 500) {
      let chunk = sequences[start..<min(start + 500, sequences.count)]
      let placeholders = Array(repeating: "?", count: chunk.count).joined(separator: ",")
      try sql.query(
        "DELETE FROM uplink_outbox WHERE sequence IN (\(placeholders))", chunk.map(SQLiteValue.integer),
        operation: "remove acknowledged messages")
      removed += sql.changes
    }
    return removed
  }

  /// Entries waiting.
  public func depth() throws(OutboxError) -> Int {
    var count = 0
    try sql.query("SELECT count(*) FROM uplink_outbox", operation: "count queued messages") { row in
      count = Int(row.integer(0))
    }
    return count
  }

  /// When the oldest waiting entry was queued; nil when the outbox is empty.
  public func oldestQueuedAt() throws(OutboxError) -> Date? {
    var oldest: Date?
    try sql.query(
      "SELECT queued_at FROM uplink_outbox ORDER BY sequence LIMIT 1", operation: "find the oldest queued message"
    ) { row in
      oldest = Date(timeIntervalSince1970: row.real(0))
    }
    return oldest
  }

  /// Drops the oldest entries beyond the bound. The span of sequences bounds the depth
  /// from above, so the common case costs two index lookups rather than a count.
  private func enforceBound() throws(OutboxError) -> OutboxOverflow? {
    var span: Int64 = 0
    try sql.query("SELECT max(sequence) - min(sequence) + 1 FROM uplink_outbox", operation: "measure the outbox") {
      row in
      span = row.isNull(0) ? 0 : row.integer(0)
    }
    guard span > Int64(bound) else { return nil }
    let excess = try depth() - bound
    guard excess > 0 else { return nil }
    var first: Int64 = 0
    var last: Int64 = 0
    var samples = 0
    var oldest = Date()
    try sql.query(
      "SELECT min(sequence), max(sequence), total(sample_count), min(queued_at) FROM (SELECT * FROM uplink_outbox ORDER BY sequence LIMIT ?)",
      [.integer(Int64(excess))], operation: "find the entries past the bound"
    ) { row in
      first = row.integer(0)
      last = row.integer(1)
      samples = Int(row.real(2))
      oldest = Date(timeIntervalSince1970: row.real(3))
    }
    try sql.query(
      "DELETE FROM uplink_outbox WHERE sequence <= ?", [.integer(last)], operation: "drop the entries past the bound")
    return OutboxOverflow(
      bound: bound, droppedEntries: excess, droppedSamples: samples, firstDroppedSequence: first,
      lastDroppedSequence: last, oldestDroppedQueuedAt: oldest)
  }
}
