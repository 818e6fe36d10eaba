/// The database's layout, one migration per version. `PRAGMA user_version` records the last
/// migration applied; each runs in one transaction together with the version bump, so a
/// power cut mid-migration leaves the previous version intact.
///
/// Units are chosen for a small row on an SD card, at a precision beyond what a receiver
/// delivers:
/// - fix time: INTEGER milliseconds since 1970 (6 bytes). Exact and totally ordered, so
///   equal timestamps compare equal after a round trip; gpsd reports milliseconds, and no
///   receiver delivers two fixes within one. A REAL would take 8 bytes for no gain.
/// - latitude, longitude: INTEGER 1e-7 degrees (4 bytes each, about 1 cm, the native
///   resolution of u-blox receivers and OpenStreetMap).
/// - horizontal accuracy: INTEGER centimetres; speed: INTEGER cm/s; course: INTEGER
///   hundredths of a degree (1 to 3 bytes each).
enum Schema {
  struct Migration {
    let version: Int32
    let statements: [String]
    /// Run after `statements` only while the samples table holds no row (a file being
    /// created): a change that rebuilds the table, which for a long history would outlast
    /// the daemon's start timeout on an SD card. Code reads either layout.
    var whileNoSamples: [String] = []
  }

  static let migrations: [Migration] = [
    Migration(
      version: 1,
      statements: [
        """
        CREATE TABLE shifts (
          id INTEGER PRIMARY KEY AUTOINCREMENT,
          started_at_ms INTEGER NOT NULL,
          ended_at_ms INTEGER,
          -- The continuity limit the shift is measured with, so its figure is reproducible.
          maximum_sample_interval REAL NOT NULL CHECK (maximum_sample_interval > 0),
          -- NULL for a shift recorded here; the source's name for an imported track.
          imported_from TEXT,
          -- Kept by the triggers below until schema 5, which drops them with this column.
          sample_count INTEGER NOT NULL DEFAULT 0
        )
        """,
        // At most one open shift, whatever writes to the file.
        "CREATE UNIQUE INDEX shifts_single_open ON shifts ((ended_at_ms IS NULL)) WHERE ended_at_ms IS NULL",
        """
        CREATE TABLE capture_sessions (
          id INTEGER PRIMARY KEY,
          session_key TEXT NOT NULL UNIQUE,
          started_at_ms INTEGER NOT NULL,
          ended_at_ms INTEGER,
          end_reason TEXT
        )
        """,
        """
        CREATE TABLE samples (
          id INTEGER PRIMARY KEY AUTOINCREMENT,
          shift_id INTEGER NOT NULL REFERENCES shifts(id) ON DELETE CASCADE,
          -- NULL for a track imported from another logger: its continuity is inferred.
          capture_session INTEGER REFERENCES capture_sessions(id),
          fix_time_ms INTEGER NOT NULL,
          latitude_e7 INTEGER NOT NULL CHECK (latitude_e7 BETWEEN -900000000 AND 900000000),
          longitude_e7 INTEGER NOT NULL CHECK (longitude_e7 BETWEEN -1800000000 AND 1800000000),
          horizontal_accuracy_cm INTEGER NOT NULL CHECK (horizontal_accuracy_cm >= 0),
          speed_cm_s INTEGER CHECK (speed_cm_s >= 0),
          course_cdeg INTEGER CHECK (course_cdeg BETWEEN 0 AND 35999)
        )
        """,
        // Every rowid index entry carries the rowid, so (shift_id) alone serves "rows of
        // shift S after row R" and "the last row of shift S" as range searches.
        "CREATE INDEX samples_by_shift ON samples (shift_id)",
        """
        CREATE TRIGGER samples_count_insert AFTER INSERT ON samples BEGIN
          UPDATE shifts SET sample_count = sample_count + 1 WHERE id = NEW.shift_id;
        END
        """,
        """
        CREATE TRIGGER samples_count_delete AFTER DELETE ON samples BEGIN
          UPDATE shifts SET sample_count = sample_count - 1 WHERE id = OLD.shift_id;
        END
        """,
        """
        CREATE TRIGGER samples_count_move AFTER UPDATE OF shift_id ON samples
        WHEN OLD.shift_id IS NOT NEW.shift_id BEGIN
          UPDATE shifts SET sample_count = sample_count - 1 WHERE id = OLD.shift_id;
          UPDATE shifts SET sample_count = sample_count + 1 WHERE id = NEW.shift_id;
        END
        """,
      ]),
    // Held samples (a parked vehicle's evidence that capture went on: no distance) and
    // samples whose accuracy was assumed (the receiver reported no error estimate). 0 and
    // 1 take no bytes in a row beyond their type, so the flags cost a byte each.
    Migration(
      version: 2,
      statements: [
        "ALTER TABLE samples ADD COLUMN held INTEGER NOT NULL DEFAULT 0 CHECK (held IN (0, 1))",
        """
        ALTER TABLE samples ADD COLUMN accuracy_assumed INTEGER NOT NULL DEFAULT 0
          CHECK (accuracy_assumed IN (0, 1))
        """,
      ]),
    // How each shift started and ended (`ShiftStartCause`, `ShiftEndCause`: manual,
    // movement, stopped, capture_lost, import, ...), now that a box starts and ends shifts
    // by itself. Text, unchecked, so a later cause needs no table rebuild. Every shift
    // before this version was started and ended by hand, or imported whole.
    Migration(
      version: 3,
      statements: [
        "ALTER TABLE shifts ADD COLUMN started_by TEXT",
        "ALTER TABLE shifts ADD COLUMN ended_by TEXT",
        """
        UPDATE shifts SET
          started_by = CASE WHEN imported_from IS NULL THEN 'manual' ELSE 'import' END,
          ended_by = CASE WHEN ended_at_ms IS NULL THEN NULL WHEN imported_from IS NULL THEN 'manual' ELSE 'import' END
        """,
      ]),
    // The receiver a capture session was reading when it ended (a DEVICE report's path,
    // such as /dev/ttyACM0), where capture knew it: a gap's cause names it ("receiver
    // /dev/ttyACM0 removed"). NULL for every other ending and for sessions recorded before.
    Migration(version: 4, statements: ["ALTER TABLE capture_sessions ADD COLUMN end_device TEXT"]),
    // Fewer pages per commit. A commit appends every page it changed to the log, whole,
    // and the card is written in 4 KiB pages: a one-second commit of a sample or two wrote
    // a page of each of four tables. Two of them go:
    // - the kept row count: its triggers changed the shift's row with every insert. A
    //   reader that needs to know the rows it read are still there asks the store's row
    //   watch instead (`rowTally`); a count, where one is wanted, is counted from the index;
    // - AUTOINCREMENT, in a file that has no samples yet: it changed sqlite_sequence with
    //   every insert. Ids still only grow while rows are kept; one may be given again after
    //   a rollback or a deletion of the last rows, which the row watch reports.
    Migration(
      version: 5,
      statements: [
        "DROP TRIGGER samples_count_insert",
        "DROP TRIGGER samples_count_delete",
        "DROP TRIGGER samples_count_move",
        "ALTER TABLE shifts DROP COLUMN sample_count",
      ],
      whileNoSamples: [
        """
        CREATE TABLE samples_v5 (
          id INTEGER PRIMARY KEY,
          shift_id INTEGER NOT NULL REFERENCES shifts(id) ON DELETE CASCADE,
          capture_session INTEGER REFERENCES capture_sessions(id),
          fix_time_ms INTEGER NOT NULL,
          latitude_e7 INTEGER NOT NULL CHECK (latitude_e7 BETWEEN -900000000 AND 900000000),
          longitude_e7 INTEGER NOT NULL CHECK (longitude_e7 BETWEEN -1800000000 AND 1800000000),
          horizontal_accuracy_cm INTEGER NOT NULL CHECK (horizontal_accuracy_cm >= 0),
          speed_cm_s INTEGER CHECK (speed_cm_s >= 0),
          course_cdeg INTEGER CHECK (course_cdeg BETWEEN 0 AND 35999),
          held INTEGER NOT NULL DEFAULT 0 CHECK (held IN (0, 1)),
          accuracy_assumed INTEGER NOT NULL DEFAULT 0 CHECK (accuracy_assumed IN (0, 1))
        )
        """,
        "DROP TABLE samples",
        "ALTER TABLE samples_v5 RENAME TO samples",
        "CREATE INDEX samples_by_shift ON samples (shift_id)",
      ]),
    // Retention: a completed shift is deleted a small transaction at a time, so capture's
    // commits keep their pace. It is marked first, in one transaction, and from then on no
    // list or figure sees it, half-deleted or not; a deletion a power cut interrupted is
    // found again by the mark (the partial index: a lookup, whatever the history).
    // ADD COLUMN with a constant default rewrites no row.
    Migration(
      version: 6,
      statements: [
        "ALTER TABLE shifts ADD COLUMN deleting INTEGER NOT NULL DEFAULT 0",
        "CREATE INDEX shifts_being_deleted ON shifts (id) WHERE deleting = 1",
      ]),
    // Samples dated by their arrival on the box's clock: the receiver sent no date (GGA
    // only), so the fix time is when the report arrived (`RouteSample.isDatedByArrival`).
    // ADD COLUMN with a constant default rewrites no row; the flag costs a byte a row.
    Migration(
      version: 7,
      statements: [
        """
        ALTER TABLE samples ADD COLUMN dated_by_arrival INTEGER NOT NULL DEFAULT 0
          CHECK (dated_by_arrival IN (0, 1))
        """
      ]),
  ]

  /// The version this code writes and understands.
  static var latestVersion: Int32 { migrations.last?.version ?? 0 }

  /// Applies every migration newer than the file's version, each in its own transaction.
  /// Returns the version the file had before. Refuses a file newer than the code without
  /// writing to it.
  static func migrate(_ database: Database) throws(StoreError) -> Int32 {
    let found = try userVersion(database)
    guard found <= latestVersion else {
      throw .newerSchema(path: database.path, found: found, supported: latestVersion)
    }
    for migration in migrations where migration.version > found {
      try database.writeTransaction("migrate to schema \(migration.version)") { () throws(StoreError) in
        for statement in migration.statements { try database.execute(statement) }
        if !migration.whileNoSamples.isEmpty,
          try database.scalarInt64("SELECT EXISTS (SELECT 1 FROM samples)") == 0
        {
          for statement in migration.whileNoSamples { try database.execute(statement) }
        }
        try database.execute("PRAGMA user_version = \(migration.version)")
      }
    }
    return found
  }

  static func userVersion(_ database: Database) throws(StoreError) -> Int32 {
    Int32(truncatingIfNeeded: try database.scalarInt64("PRAGMA user_version") ?? 0)
  }
}
