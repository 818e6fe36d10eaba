import Store

extension Outbox {
  /// Version 4 lets the outbox hold `stop` messages. SQLite cannot change a CHECK
  /// constraint in place, so the table is copied into a new one, as version 2 did, in the
  /// migration's one transaction: entries queued by an older version keep their sequence.
  static let stopTopicMigration = SchemaExtension.Migration(
    version: 4,
    statements: [
      """
      CREATE TABLE uplink_outbox_v4 (
        sequence INTEGER PRIMARY KEY,
        topic TEXT NOT NULL CHECK (topic IN ('samples', 'shift', 'session', 'stop', 'events', 'reply')),
        shift_id INTEGER,
        sample_count INTEGER NOT NULL DEFAULT 0,
        queued_at REAL NOT NULL,
        payload BLOB NOT NULL
      )
      """,
      """
      INSERT INTO uplink_outbox_v4 (sequence, topic, shift_id, sample_count, queued_at, payload)
      SELECT sequence, topic, shift_id, sample_count, queued_at, payload FROM uplink_outbox
      """,
      "DROP TABLE uplink_outbox",
      "ALTER TABLE uplink_outbox_v4 RENAME TO uplink_outbox",
    ])
}
