import DashPilotCore
import FoundationEssentials
import Store

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

/// Store-and-forward queue in the box's own SQLite database, a schema extension of the
/// store's. A message is enqueued in the transaction that commits what it describes (the
/// store hands it to its commit observer), so the fleet can never hear of a batch the box
/// rolled back, nor miss one it kept; it is removed only after the broker acknowledged it,
/// through the drain's own connection (`OutboxDatabase`).
public struct Outbox: Sendable {
  public let encoder: UplinkEncoder
  /// The most entries kept; an enqueue beyond it drops the oldest and says so.
  public let bound: Int

  public init(encoder: UplinkEncoder, bound: Int) {
    self.encoder = encoder
    self.bound = max(1, bound)
  }

  /// The outbox's tables. Version 1 is what earlier versions created without a version
  /// (`IF NOT EXISTS`), so a file they wrote is adopted as it is. Version 2 lets the table
  /// hold events and command replies: SQLite cannot change a CHECK constraint in place, so
  /// the table is copied into a new one, in the migration's one transaction. Version 3 adds
  /// the record of what the broker acknowledged of each shift (`ShiftDelivery`); version 4
  /// lets it hold `stop` messages; version 5 lets a shift sent again be counted afresh
  /// (`ShiftDelivery.resendMigration`).
  public static let schema = SchemaExtension(
    name: "uplink_outbox",
    migrations: [
      SchemaExtension.Migration(
        version: 1,
        statements: [
          """
          CREATE TABLE IF NOT EXISTS uplink_outbox (
            sequence INTEGER PRIMARY KEY,
            topic TEXT NOT NULL CHECK (topic IN ('samples', 'shift', 'session')),
            shift_id INTEGER,
            sample_count INTEGER NOT NULL DEFAULT 0,
            queued_at REAL NOT NULL,
            payload BLOB NOT NULL
          )
          """,
          """
          CREATE TABLE IF NOT EXISTS uplink_outbox_sequence (
            singleton INTEGER PRIMARY KEY CHECK (singleton = 1),
            last_sequence INTEGER NOT NULL
          )
          """,
          "INSERT OR IGNORE INTO uplink_outbox_sequence (singleton, last_sequence) VALUES (1, 0)",
        ]),
      SchemaExtension.Migration(
        version: 2,
        statements: [
          """
          CREATE TABLE uplink_outbox_v2 (
            sequence INTEGER PRIMARY KEY,
            topic TEXT NOT NULL CHECK (topic IN ('samples', 'shift', 'session', 'events', 'reply')),
            shift_id INTEGER,
            sample_count INTEGER NOT NULL DEFAULT 0,
            queued_at REAL NOT NULL,
            payload BLOB NOT NULL
          )
          """,
          """
          INSERT INTO uplink_outbox_v2 (sequence, topic, shift_id, sample_count, queued_at, payload)
          SELECT sequence, topic, shift_id, sample_count, queued_at, payload FROM uplink_outbox
          """,
          "DROP TABLE uplink_outbox",
          "ALTER TABLE uplink_outbox_v2 RENAME TO uplink_outbox",
        ]),
      ShiftDelivery.migration,
      stopTopicMigration,
      ShiftDelivery.resendMigration,
    ])

  /// Queues `message` in `transaction`, the one that commits what the message describes (a
  /// savepoint keeps the sequence and the row together). `counted` false keeps its
  /// acknowledgement out of the shift's delivery record (a part of a shift sent again,
  /// which the record has counted once already). Returns what the bound made it drop, if
  /// anything, for the caller to log.
  @discardableResult
  public func enqueue(
    _ message: UplinkMessage, queuedAt: Date, counted: Bool = true, in transaction: StoreTransaction
  ) throws(StoreError) -> OutboxOverflow? {
    try transaction.savepoint { () throws(StoreError) -> OutboxOverflow? in
      var sequence: Int64 = 0
      try transaction.query(
        "UPDATE uplink_outbox_sequence SET last_sequence = last_sequence + 1 WHERE singleton = 1 RETURNING last_sequence"
      ) { row in sequence = row.int64(0) }
      guard sequence > 0 else {
        throw StoreError.sqlite(
          code: 1, message: "the sequence row is missing", operation: "uplink outbox: assign a sequence")
      }
      let payload = encoder.encode(message, sequence: sequence, queuedAt: queuedAt)
      try transaction.query(
        """
        INSERT INTO uplink_outbox (sequence, topic, shift_id, sample_count, queued_at, payload, counted)
        VALUES (?, ?, ?, ?, ?, ?, ?)
        """,
        [
          .integer(sequence), .text(message.topic.rawValue), message.shiftID.map(SQLValue.integer) ?? .null,
          .integer(Int64(message.sampleCount)), .real(queuedAt.timeIntervalSince1970), .blob(payload),
          .integer(counted ? 1 : 0),
        ])
      return try enforceBound(in: transaction)
    }
  }

  /// The oldest `limit` entries with a sequence above `after`, oldest first.
  public func peek(after: Int64 = 0, limit: Int, in transaction: StoreTransaction) throws(StoreError) -> [OutboxEntry] {
    var entries: [OutboxEntry] = []
    try transaction.query(
      "SELECT sequence, topic, shift_id, sample_count, queued_at, payload FROM uplink_outbox WHERE sequence > ? ORDER BY sequence LIMIT ?",
      [.integer(after), .integer(Int64(max(0, limit)))]
    ) { row in
      guard let topic = UplinkTopic(rawValue: row.text(1) ?? "") else { return }
      entries.append(
        OutboxEntry(
          sequence: row.int64(0), topic: topic, shiftID: row.optionalInt64(2), sampleCount: Int(row.int64(3)),
          queuedAt: Date(timeIntervalSince1970: row.double(4)), payload: row.blob(5)))
    }
    return entries
  }

  /// Removes acknowledged entries, recording each of a shift's as the broker's
  /// (`ShiftDelivery`); returns how many were still there (an entry dropped by the bound, or
  /// acknowledged twice, is not, and is not recorded again).
  @discardableResult
  public func remove(sequences: [Int64], in transaction: StoreTransaction) throws(StoreError) -> Int {
    var removed: [(sequence: Int64, topic: UplinkTopic, shiftID: Int64?, sampleCount: Int, counted: Bool)] = []
    for sequence in sequences {
      try transaction.query(
        "DELETE FROM uplink_outbox WHERE sequence = ? RETURNING topic, shift_id, sample_count, counted",
        [.integer(sequence)]
      ) { row in
        guard let topic = UplinkTopic(rawValue: row.text(0) ?? "") else { return }
        removed.append((sequence, topic, row.optionalInt64(1), Int(row.int64(2)), row.int64(3) != 0))
      }
    }
    for entry in removed where entry.counted {
      guard let shiftID = entry.shiftID else { continue }
      try ShiftDelivery.acknowledged(
        topic: entry.topic, shiftID: shiftID, sampleCount: entry.sampleCount, sequence: entry.sequence,
        in: transaction)
    }
    return removed.count
  }

  /// The sequence the last message queued was given (0 before any): the next is one more.
  public func lastSequence(in transaction: StoreTransaction) throws(StoreError) -> Int64 {
    var last: Int64 = 0
    try transaction.query("SELECT last_sequence FROM uplink_outbox_sequence WHERE singleton = 1") { row in
      last = row.int64(0)
    }
    return last
  }

  /// Entries waiting.
  public func depth(in transaction: StoreTransaction) throws(StoreError) -> Int {
    var count = 0
    try transaction.query("SELECT count(*) FROM uplink_outbox") { row in count = Int(row.int64(0)) }
    return count
  }

  /// When the oldest waiting entry was queued; nil when the outbox is empty.
  public func oldestQueuedAt(in transaction: StoreTransaction) throws(StoreError) -> Date? {
    var oldest: Date?
    try transaction.query("SELECT queued_at FROM uplink_outbox ORDER BY sequence LIMIT 1") { row in
      oldest = Date(timeIntervalSince1970: row.double(0))
    }
    return oldest
  }

  /// Drops the oldest entries beyond the bound. The span of sequences bounds the depth
  /// from above, so the common case costs two index lookups rather than a count.
  private func enforceBound(in transaction: StoreTransaction) throws(StoreError) -> OutboxOverflow? {
    var span: Int64 = 0
    try transaction.query("SELECT max(sequence) - min(sequence) + 1 FROM uplink_outbox") { row in
      span = row.optionalInt64(0) ?? 0
    }
    guard span > Int64(bound) else { return nil }
    let excess = try depth(in: transaction) - bound
    guard excess > 0 else { return nil }
    var first: Int64 = 0
    var last: Int64 = 0
    var samples = 0
    var oldest = Date(timeIntervalSince1970: 0)
    try transaction.query(
      "SELECT min(sequence), max(sequence), total(sample_count), min(queued_at) FROM (SELECT * FROM uplink_outbox ORDER BY sequence LIMIT ?)",
      [.integer(Int64(excess))]
    ) { row in
      first = row.int64(0)
      last = row.int64(1)
      samples = Int(row.double(2))
      oldest = Date(timeIntervalSince1970: row.double(3))
    }
    try transaction.query("DELETE FROM uplink_outbox WHERE sequence <= ?", [.integer(last)])
    return OutboxOverflow(
      bound: bound, droppedEntries: excess, droppedSamples: samples, firstDroppedSequence: first,
      lastDroppedSequence: last, oldestDroppedQueuedAt: oldest)
  }
}
