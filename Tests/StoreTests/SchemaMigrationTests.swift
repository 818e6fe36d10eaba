import DashPilotCore
import Foundation
import TestSupport
import Testing

@testable import Store

@Suite struct SchemaMigrationTests {
  @Test func anEmptyFileIsMigratedToTheLatestSchema() throws {
    let file = try TemporaryStoreFile("migrate")
    let store = try file.open()
    #expect(store.openReport.foundSchemaVersion == 0)
    #expect(store.openReport.schemaVersion == 3)
    #expect(store.openReport.wasMigrated)
    #expect(store.openReport.movedAside == nil)
    #expect(try store.database.scalarInt64("PRAGMA user_version") == 3)
    let tables = try store.database.textColumn(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
    #expect(tables == ["capture_sessions", "samples", "shifts"])
    let indexes = try store.database.textColumn(
      "SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL ORDER BY name")
    #expect(indexes == ["samples_by_shift", "shifts_single_open"])
    let triggers = try store.database.textColumn(
      "SELECT name FROM sqlite_master WHERE type = 'trigger' ORDER BY name")
    #expect(triggers == ["samples_count_delete", "samples_count_insert", "samples_count_move"])
    let columns = try store.database.textColumn("SELECT name FROM pragma_table_info('samples') ORDER BY cid")
    #expect(
      columns == [
        "id", "shift_id", "capture_session", "fix_time_ms", "latitude_e7", "longitude_e7",
        "horizontal_accuracy_cm", "speed_cm_s", "course_cdeg", "held", "accuracy_assumed",
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
    #expect(store.openReport.messages == ["database \(file.path) migrated from schema 1 to 3"])
    let samples = try store.samples(ofShift: 1)
    #expect(samples.count == 3)
    #expect(samples.allSatisfy { !$0.isHeld && !$0.isAccuracyAssumed })
    #expect(samples.map(\.coordinate.latitude) == [51.5, 51.5001, 51.5002])
    #expect(try store.shift(id: 1)?.sampleCount == 3)
  }

  @Test func theMigrationIsReportedForTheLog() throws {
    let file = try TemporaryStoreFile("report")
    let store = try file.open()
    #expect(store.openReport.messages == ["database \(file.path) migrated from schema 0 to 3"])
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
  }

  @Test func reopeningACurrentFileMigratesNothing() throws {
    let file = try TemporaryStoreFile("reopen")
    do {
      let store = try file.open()
      _ = try store.startShift(at: at(1_700_000_000))
    }
    let store = try file.open()
    #expect(store.openReport.foundSchemaVersion == 3)
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
      try store.database.execute("PRAGMA user_version = 7")
      try store.database.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    }
    let before = try Data(contentsOf: URL(fileURLWithPath: file.path))
    let namesBefore = try file.fileNames()

    #expect(throws: StoreError.newerSchema(path: file.path, found: 7, supported: 3)) {
      _ = try file.open()
    }
    #expect(try Data(contentsOf: URL(fileURLWithPath: file.path)) == before)
    #expect(try file.fileNames() == namesBefore)
    let message = StoreError.newerSchema(path: file.path, found: 7, supported: 3).description
    #expect(message.contains("schema version 7, newer than the 3"))
    #expect(message.contains("left unchanged"))
  }

  @Test func aNewerVersionStillInTheLogIsRefusedToo() throws {
    let file = try TemporaryStoreFile("newer-in-log")
    do { _ = try file.open() }
    // A newer DashPilot still running: its version bump sits in the log, not yet in the file.
    let newer = try Database(path: file.path)
    try newer.execute("PRAGMA wal_autocheckpoint = 0")
    try newer.execute("PRAGMA user_version = 4")
    let before = try Data(contentsOf: URL(fileURLWithPath: file.path))
    #expect(try DatabaseHeader.read(path: file.path) == .database(userVersion: 3))

    #expect(throws: StoreError.newerSchema(path: file.path, found: 4, supported: 3)) {
      _ = try file.open()
    }
    #expect(try Data(contentsOf: URL(fileURLWithPath: file.path)) == before)
    #expect(try newer.scalarInt64("PRAGMA user_version") == 4)
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
