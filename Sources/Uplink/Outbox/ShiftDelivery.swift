import Store

/// The record, kept beside the outbox, that the broker has a shift: its shift message and
/// every one of its samples acknowledged. Positive, so that only what the broker confirmed
/// counts: an entry that left the outbox another way (dropped by the bound, never sent) is
/// never counted, and neither is a sample recorded before the uplink was configured (it was
/// never queued). Retention deletes a shift under an uplink only once this says so.
///
/// Written in two places, each in the transaction that does what it records: the samples
/// the shift holds, counted in the transaction that completes it and queues its shift
/// message (`OutboxCommitObserver`); and each acknowledged entry, counted once, in the
/// drain's transaction that removes it (`Outbox.remove`), on the drain's own connection.
public enum ShiftDelivery {
  /// The outbox extension's version 3. A shift completed before it has no record, and so
  /// is never taken for acknowledged.
  static let migration = SchemaExtension.Migration(
    version: 3,
    statements: [
      """
      CREATE TABLE uplink_shift_delivery (
        shift_id INTEGER PRIMARY KEY,
        -- The shift's sample rows when it completed; NULL while it is open.
        sample_rows INTEGER,
        -- Samples in the shift's batches the broker acknowledged, each entry counted once.
        samples_acknowledged INTEGER NOT NULL DEFAULT 0,
        -- 1 once the broker acknowledged the shift message.
        shift_acknowledged INTEGER NOT NULL DEFAULT 0
      )
      """
    ])

  /// Shift `id` completed holding `sampleRows` rows: what its acknowledged samples must add
  /// up to.
  static func shiftCompleted(_ id: Int64, sampleRows: Int, in transaction: StoreTransaction) throws(StoreError) {
    try transaction.query(
      """
      INSERT INTO uplink_shift_delivery (shift_id, sample_rows) VALUES (?, ?)
      ON CONFLICT (shift_id) DO UPDATE SET sample_rows = excluded.sample_rows
      """, [.integer(id), .integer(Int64(sampleRows))])
  }

  /// The outbox extension's version 5: `counted_from`, the first sequence that counts for
  /// the shift (0: all), and the outbox's `counted`, false on an entry that counts for none.
  /// A whole shift sent again (`shift.resend`) is counted afresh from its first message: an
  /// entry of the first sending acknowledged after that would count its samples twice.
  /// Part of a shift sent again is never counted: its samples were counted once already, or
  /// dropped, and only a whole sending can say every one reached the broker.
  static let resendMigration = SchemaExtension.Migration(
    version: 5,
    statements: [
      "ALTER TABLE uplink_shift_delivery ADD COLUMN counted_from INTEGER NOT NULL DEFAULT 0",
      "ALTER TABLE uplink_outbox ADD COLUMN counted INTEGER NOT NULL DEFAULT 1",
    ])

  /// Shift `id` is sent again whole, read when the outbox's last sequence was
  /// `countedFrom` - 1: what was acknowledged of it is forgotten, and only entries from
  /// `countedFrom` on count (the resend's, and those of rows committed after the read).
  static func resentWhole(_ id: Int64, countedFrom: Int64, in transaction: StoreTransaction) throws(StoreError) {
    try transaction.query(
      """
      INSERT INTO uplink_shift_delivery (shift_id, counted_from) VALUES (?, ?)
      ON CONFLICT (shift_id) DO UPDATE SET
        counted_from = excluded.counted_from, samples_acknowledged = 0, shift_acknowledged = 0
      """, [.integer(id), .integer(countedFrom)])
  }

  /// The broker acknowledged entry `sequence`, just removed from the outbox.
  static func acknowledged(
    topic: UplinkTopic, shiftID: Int64, sampleCount: Int, sequence: Int64, in transaction: StoreTransaction
  ) throws(StoreError) {
    switch topic {
    case .samples:
      try transaction.query(
        """
        INSERT INTO uplink_shift_delivery (shift_id, samples_acknowledged) VALUES (?, ?)
        ON CONFLICT (shift_id) DO UPDATE SET samples_acknowledged = samples_acknowledged + excluded.samples_acknowledged
        WHERE counted_from <= ?
        """, [.integer(shiftID), .integer(Int64(sampleCount)), .integer(sequence)])
    case .shift:
      try transaction.query(
        """
        INSERT INTO uplink_shift_delivery (shift_id, shift_acknowledged) VALUES (?, 1)
        ON CONFLICT (shift_id) DO UPDATE SET shift_acknowledged = 1 WHERE counted_from <= ?
        """, [.integer(shiftID), .integer(sequence)])
    default:
      return
    }
  }

  /// Whether the broker acknowledged shift `id`'s message and every one of its samples.
  public static func isAcknowledged(shift id: Int64, in transaction: StoreTransaction) throws(StoreError) -> Bool {
    var acknowledged = false
    try transaction.query(
      """
      SELECT shift_acknowledged = 1 AND sample_rows IS NOT NULL AND samples_acknowledged = sample_rows
      FROM uplink_shift_delivery WHERE shift_id = ?
      """, [.integer(id)]
    ) { row in acknowledged = row.int64(0) == 1 }
    return acknowledged
  }
}
