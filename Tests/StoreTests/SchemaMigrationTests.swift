import DashPilotCore
import Foundation
import TestSupport
import Testing

@testable import Store

@Suite struct SchemaMigrationTests {
  static func samplesTableAutoincrements(_ store: SampleStore) throws -> Bool {
    let sql = try store.database.scalarText("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'samples'")
    return try #require(sql).contains("AUTOINCREMENT")
  }

  @Test func anEmptyFileIsMigratedToTheLatestSchema() throws {
    let file = try TemporaryStoreFile("migrate")
    let store = try file.open()
    #expect(store.openReport.foundSchemaVersion == 0)
    #expect(store.openReport.schemaVersion == 7)
    #expect(store.openReport.wasMigrated)
    #expect(store.openReport.movedAside == nil)
    #expect(try store.database.scalarInt64("PRAGMA user_version") == 7)
    // A new file's samples table has no AUTOINCREMENT, so a commit leaves sqlite_sequence
    // alone.
    #expect(try !Self.samplesTableAutoincrements(store))
    let tables = try store.database.textColumn(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
    #expect(tables == ["capture_sessions", "samples", "shifts"])
    let indexes = try store.database.textColumn(
      "SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL ORDER BY name")
    #expect(indexes == ["samples_by_shift", "shifts_being_deleted", "shifts_single_open"])
    let triggers = try store.database.textColumn(
      "SELECT name FROM sqlite_master WHERE type = 'trigger' ORDER BY name")
    #expect(triggers == [])
    let columns = try store.database.textColumn("SELECT name FROM pragma_table_info('samples') ORDER BY cid")
    #expect(
      columns == [
        "id", "shift_id", "capture_session", "fix_time_ms", "latitude_e7", "longitude_e7",
        "horizontal_accuracy_cm", "speed_cm_s", "course_cdeg", "held", "accuracy_assumed",
        "dated_by_arrival",
      ])
    let shiftColumns = try store.database.textColumn("SELECT name FROM pragma_table_info('shifts') ORDER BY cid")
    #expect(
      shiftColumns == [
        "id", "started_at_ms", "ended_at_ms", "maximum_sample_interval", "imported_from", "started_by",
        "ended_by", "deleting",
      ])
    let sessionColumns = try store.database.textColumn(
      "SELECT name FROM pragma_table_info('capture_sessions') ORDER BY cid")
    #expect(sessionColumns == ["id", "session_key", "started_at_ms", "ended_at_ms", "end_reason", "end_device"])
  }

  /// A file the previous release wrote (schema 1, before held samples) keeps every row,
  /// each read as a position whose accuracy was reported, and measures as it did.
  @Test func aSchemaOneFileGainsTheSampleFlagsAndKeepsItsRows() throws {
    let file = try TemporaryStoreFile("schema-one")
    do {
      let old = try Database(path: file.path)
      try old.writeTransaction("write schema 1") { () throws(StoreError) in
        for statement in Schema.migrations[0].statements { try old.execute(statement) }
        try old.execute("PRAGMA user_version = 1")
        try old.execute("INSERT INTO shifts (started_at_ms, maximum_sample_interval) VALUES (1700000000000, 120)")
        for i in 0..<3 {
          try old.execute(
            """
            INSERT INTO samples (shift_id, fix_time_ms, latitude_e7, longitude_e7, horizontal_accuracy_cm)
            VALUES (1, \(1_700_000_000_000 + i * 1000), \(515_000_000 + i * 1000), -1200000, 500)
            """)
        }
      }
    }
    let store = try file.open()
    #expect(store.openReport.foundSchemaVersion == 1)
    #expect(store.openReport.messages == ["database \(file.path) migrated from schema 1 to 7"])
    let samples = try store.samples(ofShift: 1)
    #expect(samples.count == 3)
    #expect(samples.allSatisfy { !$0.isHeld && !$0.isAccuracyAssumed })
    #expect(samples.map(\.coordinate.latitude) == [51.5, 51.5001, 51.5002])
    #expect(try store.sampleCount(ofShift: 1) == 3)
  }

  /// A file version 2 wrote (before shifts started and ended by themselves): every shift
  /// it holds was started and ended by hand, or imported whole, and reads so; the open one
  /// is still open, with no end cause; every row stays.
  @Test func aSchemaTwoFileLearnsHowItsShiftsStartedAndEnded() throws {
    let file = try TemporaryStoreFile("schema-two")
    do {
      let old = try Database(path: file.path)
      try old.writeTransaction("write schema 2") { () throws(StoreError) in
        for migration in Schema.migrations where migration.version <= 2 {
          for statement in migration.statements { try old.execute(statement) }
        }
        try old.execute("PRAGMA user_version = 2")
        try old.execute(
          """
          INSERT INTO shifts (started_at_ms, ended_at_ms, maximum_sample_interval, imported_from) VALUES
            (1700000000000, 1700003600000, 120, NULL), (1700010000000, 1700010600000, 120, 'track.gpx'),
            (1700020000000, NULL, 120, NULL)
          """)
        for i in 0..<4 {
          try old.execute(
            """
            INSERT INTO samples (shift_id, fix_time_ms, latitude_e7, longitude_e7, horizontal_accuracy_cm, held)
            VALUES (3, \(1_700_020_000_000 + i * 1000), \(515_000_000 + i * 1000), -1200000, 500, \(i == 3 ? 1 : 0))
            """)
        }
      }
    }
    let store = try file.open()
    #expect(store.openReport.foundSchemaVersion == 2)
    #expect(store.openReport.messages == ["database \(file.path) migrated from schema 2 to 7"])
    let shifts = try store.shifts()
    #expect(shifts.map(\.startedBy) == [.manual, .imported, .manual])
    #expect(shifts.map(\.endedBy) == [.manual, .imported, nil])
    #expect(try store.openShift()?.id == 3)
    #expect(try store.samples(ofShift: 3).map(\.isHeld) == [false, false, false, true])
    #expect(try store.sampleCount(ofShift: 3) == 4)
    // A file with rows keeps its samples table as it was (AUTOINCREMENT): rebuilding a long
    // history would outlast the daemon's start.
    #expect(try Self.samplesTableAutoincrements(store))
    // The open shift ends as any does now, with its cause.
    let ended = try store.endShift(3, at: at(1_700_020_010))
    #expect(ended.endedBy == .manual)
    #expect(try store.shift(id: 3)?.endedBy == .manual)
  }

  /// A file version 6 wrote: migration 7 adds `dated_by_arrival` in place (no table
  /// rebuild), every row it had reads as dated by its receiver, and a sample dated by
  /// arrival is stored and read back so.
  @Test func aSchemaSixFileGainsTheArrivalFlagInPlace() throws {
    let file = try TemporaryStoreFile("schema-six")
    do {
      let old = try Database(path: file.path)
      try old.writeTransaction("write schema 6") { () throws(StoreError) in
        for migration in Schema.migrations where migration.version <= 6 {
          for statement in migration.statements + migration.whileNoSamples { try old.execute(statement) }
        }
        try old.execute("PRAGMA user_version = 6")
        try old.execute(
          "INSERT INTO shifts (started_at_ms, maximum_sample_interval, started_by) VALUES (1700020000000, 120, 'manual')"
        )
        for i in 0..<3 {
          try old.execute(
            """
            INSERT INTO samples (shift_id, fix_time_ms, latitude_e7, longitude_e7, horizontal_accuracy_cm)
            VALUES (1, \(1_700_020_000_000 + i * 1000), \(515_000_000 + i * 1000), -1200000, 500)
            """)
        }
      }
    }
    let store = try file.open()
    #expect(store.openReport.messages == ["database \(file.path) migrated from schema 6 to 7"])
    #expect(try store.samples(ofShift: 1).map(\.isDatedByArrival) == [false, false, false])
    #expect(try store.sampleCount(ofShift: 1) == 3)
    let dated = RouteSample(
      timestamp: at(1_700_020_010), coordinate: GeoCoordinate(latitude: 51.5005, longitude: -0.12),
      horizontalAccuracy: 19, captureSessionID: nil, isDatedByArrival: true)
    try store.append([dated], toShift: 1)
    #expect(try store.samples(ofShift: 1).map(\.isDatedByArrival) == [false, false, false, true])
    #expect(try store.recordedDistance(ofShift: 1).positionsDatedByArrival == 1)
    #expect(try store.database.scalarInt64("SELECT count(*) FROM samples WHERE dated_by_arrival = 1") == 1)
    #expect(throws: StoreError.self) { try store.database.execute("UPDATE samples SET dated_by_arrival = 2") }
  }

  @Test func shiftsRememberHowTheyStartedAndEnded() throws {
    let file = try TemporaryStoreFile("causes")
    let store = try file.open()
    let first = try store.startShift(at: at(1_700_000_000), startedBy: .movement)
    #expect(first.startedBy == .movement && first.endedBy == nil)
    _ = try store.endShift(first.id, at: at(1_700_000_600), endedBy: .captureLost)
    let byHand = try store.startShift(at: at(1_700_001_000))
    _ = try store.endShift(byHand.id, at: at(1_700_001_600))
    let imported = try store.importTrack(straightRoute(count: 3), source: "x.gpx")
    let shifts = try store.shifts()
    #expect(shifts.map(\.startedBy) == [.movement, .manual, .imported])
    #expect(shifts.map(\.endedBy) == [.captureLost, .manual, .imported])
    #expect(imported.startedBy == .imported)
    // A cause a newer daemon wrote reads as unknown, not as another.
    try store.database.execute("UPDATE shifts SET started_by = 'dispatch', ended_by = 'geofence' WHERE id = 1")
    #expect(try store.shift(id: 1)?.startedBy == nil)
    #expect(try store.shift(id: 1)?.endedBy == nil)
  }

  @Test func theMigrationIsReportedForTheLog() throws {
    let file = try TemporaryStoreFile("report")
    let store = try file.open()
    #expect(store.openReport.messages == ["database \(file.path) migrated from schema 0 to 7"])
  }

  @Test func aDatabaseThatCannotBeCreatedGivesATypedError() throws {
    let file = try TemporaryStoreFile("missing-dir")
    let path = file.directory.appendingPathComponent("no/such/dir/dashpilot.sqlite").path
    let error = #expect(throws: StoreError.self) { _ = try SampleStore(path: path) }
    guard case .cannotWrite(let failure)? = error else {
      Issue.record("expected cannotWrite, got \(String(describing: error))")
      return
    }
    #expect(failure.primaryResultCode == 14)  // SQLITE_CANTOPEN
    #expect(failure.operation == "open \(path)")
  }

  @Test func theFileIsOpenedDurably() throws {
    let file = try TemporaryStoreFile("durable")
    let store = try file.open()
    #expect(try store.database.scalarText("PRAGMA journal_mode") == "wal")
    #expect(try store.database.scalarInt64("PRAGMA synchronous") == 2)
    #expect(try store.database.scalarInt64("PRAGMA foreign_keys") == 1)
    #expect(try store.database.scalarInt64("PRAGMA page_size") == 1024)
  }

  @Test func reopeningACurrentFileMigratesNothing() throws {
    let file = try TemporaryStoreFile("reopen")
    do {
      let store = try file.open()
      _ = try store.startShift(at: at(1_700_000_000))
    }
    let store = try file.open()
    #expect(store.openReport.foundSchemaVersion == 7)
    #expect(!store.openReport.wasMigrated)
    #expect(store.openReport.messages.isEmpty)
    #expect(try store.shifts().map(\.id) == [1])
  }

  @Test func aFileFromANewerVersionIsRefusedAndLeftByteIdentical() throws {
    let file = try TemporaryStoreFile("newer")
    do {
      let store = try file.open()
      let shift = try store.startShift(at: at(1_700_000_000))
      try store.append(straightRoute(count: 5), toShift: shift.id)
      try store.database.execute("PRAGMA user_version = 8")
      try store.database.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    }
    let before = try Data(contentsOf: URL(fileURLWithPath: file.path))
    let namesBefore = try file.fileNames()

    #expect(throws: StoreError.newerSchema(path: file.path, found: 8, supported: 7)) {
      _ = try file.open()
    }
    #expect(try Data(contentsOf: URL(fileURLWithPath: file.path)) == before)
    #expect(try file.fileNames() == namesBefore)
    let message = StoreError.newerSchema(path: file.path, found: 8, supported: 7).description
    #expect(message.contains("schema version 8, newer than the 7"))
    #expect(message.contains("left unchanged"))
  }

  @Test func aNewerVersionStillInTheLogIsRefusedToo() throws {
    let file = try TemporaryStoreFile("newer-in-log")
    do { _ = try file.open() }
    // A newer DashPilot still running: its version bump sits in the log, not yet in the file.
    let newer = try Database(path: file.path)
    try newer.execute("PRAGMA wal_autocheckpoint = 0")
    try newer.execute("PRAGMA user_version = 8")
    let before = try Data(contentsOf: URL(fileURLWithPath: file.path))
    #expect(try DatabaseHeader.read(path: file.path) == .database(userVersion: 7))

    #expect(throws: StoreError.newerSchema(path: file.path, found: 8, supported: 7)) {
      _ = try file.open()
    }
    #expect(try Data(contentsOf: URL(fileURLWithPath: file.path)) == before)
    #expect(try newer.scalarInt64("PRAGMA user_version") == 8)
  }

  @Test func theSchemaAllowsOnlyOneOpenShift() throws {
    let file = try TemporaryStoreFile("single-open")
    let store = try file.open()
    _ = try store.startShift(at: at(1_700_000_000))
    let error = #expect(throws: StoreError.self) {
      try store.database.execute(
        "INSERT INTO shifts (started_at_ms, maximum_sample_interval) VALUES (1700000100000, 120)")
    }
    guard case .constraint(let failure)? = error else {
      Issue.record("expected a constraint failure, got \(String(describing: error))")
      return
    }
    #expect(failure.primaryResultCode == 19)
    #expect(failure.message.contains("UNIQUE"))
  }
}
