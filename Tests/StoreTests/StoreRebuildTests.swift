import DashPilotCore
import Foundation
import TestSupport
import Testing

@testable import Store

/// A copy of the store made while it records (`StoreRebuild`), put in place at the next
/// open: a 0.1.0 file reaches the current layout with every row, a copy cut short resumes
/// where it stopped, a damaged file gives up only the rows that cannot be read, and a copy
/// of another file is never put in place.
@Suite("store rebuild: a copy made while recording, switched at open")
struct StoreRebuildTests {
  /// Every row of every table as text, in rowid order, sqlite_sequence aside.
  static func rows(_ database: Database, tables: [String]) throws -> [String: [String]] {
    var result: [String: [String]] = [:]
    for table in tables {
      let columns = try RowCopier.columns(of: table, in: "main", database).map { "quote(\"\($0.name)\")" }
      result[table] = try database.textColumn(
        "SELECT \(columns.joined(separator: " || '|' || ")) FROM \"\(table)\" ORDER BY 1")
    }
    return result
  }

  static let storeTables = ["shifts", "capture_sessions", "samples", "test_queue", "schema_extensions"]

  static let queue = SchemaExtension(
    name: "test_queue",
    migrations: [
      .init(version: 1, statements: ["CREATE TABLE test_queue (sequence INTEGER PRIMARY KEY, payload TEXT NOT NULL)"])
    ])

  @Test("a 0.1.0 file, recorded into meanwhile, reaches 1 KiB pages and no AUTOINCREMENT with every row and id")
  func convertsA010File() throws {
    let file = try ReleaseDatabaseTests.copy("0.1.0")
    var expected: [String: [String]] = [:]
    var shiftSequence: Int64?
    var shiftID: Int64 = 0
    do {
      let live = try file.open()
      #expect(try !live.hasCurrentLayout())
      #expect(try live.database.scalarInt64("PRAGMA page_size") == 4096)
      // 0.1.0 left a shift open: recording goes on into it.
      let shift = try #require(try live.openShift())
      shiftID = shift.id
      // Another module's table in the same file (the uplink's queue, say).
      try live.install(Self.queue)
      try live.transaction("queue") { (transaction) throws(StoreError) in
        try transaction.query("INSERT INTO test_queue (sequence, payload) VALUES (7, 'first'), (9, 'second')")
      }

      let rebuild = try StoreRebuild(livePath: file.path, purpose: .convert)
      var progress = try rebuild.copy(rows: 25)
      #expect(progress.copiedSamples == 25)
      #expect(!progress.isCopied)
      // Capture goes on into the live file while the copy is made.
      try live.append(straightRoute(count: 30, start: at(1_800_000_010)), toShift: shift.id)
      while !progress.isCopied { progress = try rebuild.copy(rows: 25) }
      try live.append(straightRoute(count: 10, start: at(1_800_000_100)), toShift: shift.id)
      try live.transaction("dequeue") { (transaction) throws(StoreError) in
        try transaction.query("DELETE FROM test_queue WHERE sequence = 7")
      }
      expected = try Self.rows(live.database, tables: Self.storeTables)
      #expect(expected["test_queue"] == ["9|'second'"])
      shiftSequence = try live.database.scalarInt64("SELECT seq FROM sqlite_sequence WHERE name = 'shifts'")
    }
    let total = expected["samples"]?.count ?? 0
    #expect(total > 40)

    // The daemon stopped; its next start switches.
    let reopened = try file.open()
    let switched = try #require(reopened.openReport.switched)
    #expect(switched.purpose == .convert)
    #expect(switched.samples == total)
    #expect(switched.keptAs == nil)
    #expect(try reopened.hasCurrentLayout())
    #expect(try reopened.database.scalarInt64("PRAGMA page_size") == 1024)
    #expect(try Self.rows(reopened.database, tables: Self.storeTables) == expected)
    #expect(
      try reopened.database.scalarInt64("SELECT seq FROM sqlite_sequence WHERE name = 'shifts'") == shiftSequence)
    #expect(try reopened.quickCheck() == ["ok"])
    #expect(try file.fileNames().filter { $0.contains("rebuild") || $0.contains("corrupt") }.isEmpty)
    // The open shift is still open, and recording goes on into the new file.
    #expect(try reopened.openShift()?.id == shiftID)
    try reopened.append(straightRoute(count: 2, start: at(1_800_000_200)), toShift: shiftID)
  }

  @Test("a copy cut short (a power cut, a kill) resumes where it stopped, not from the start")
  func resumes() throws {
    let file = try TemporaryStoreFile("rebuild-resume")
    let live = try file.open()
    let shift = try live.startShift(at: at(1_700_000_000))
    try live.append(straightRoute(count: 100), toShift: shift.id)
    do {
      let first = try StoreRebuild(livePath: file.path, purpose: .convert)
      try first.copy(rows: 30)
      try first.copy(rows: 30)
    }
    let again = try StoreRebuild(livePath: file.path, purpose: .convert)
    #expect(again.progress.copiedSamples == 60)
    #expect(again.progress.reachedRowID == 60)
    let progress = try again.copy(rows: 1_000)
    #expect(progress.copiedSamples == 100)
    #expect(progress.isCopied)
    // Not copied to its end: the next open leaves both as they are.
    let partial = try TemporaryStoreFile("rebuild-partial")
    do {
      let other = try partial.open()
      let otherShift = try other.startShift(at: at(1_700_000_000))
      try other.append(straightRoute(count: 50), toShift: otherShift.id)
      try StoreRebuild(livePath: partial.path, purpose: .convert).copy(rows: 10)
    }
    let reopened = try partial.open()
    #expect(reopened.openReport.switched == nil)
    #expect(try partial.fileNames().contains("dashpilot.sqlite.rebuild"))
  }

  @Test("a damaged file: every readable row is copied, the unreadable ones named, the damaged file kept")
  func salvagesADamagedFile() throws {
    let file = try TemporaryStoreFile("rebuild-salvage")
    var leafPage: Int64 = 0
    var pageSize: Int64 = 0
    var expected: [String] = []
    do {
      let live = try file.open()
      let shift = try live.startShift(at: at(1_700_000_000))
      try live.append(straightRoute(count: 3_000), toShift: shift.id)
      try live.endShift(shift.id, at: at(1_700_004_000))
      pageSize = try #require(try live.database.scalarInt64("PRAGMA page_size"))
      // A leaf page of the samples table in the middle of the file.
      leafPage = try #require(
        try live.database.scalarInt64(
          "SELECT pageno FROM dbstat WHERE name = 'samples' AND pagetype = 'leaf' ORDER BY pageno LIMIT 1 OFFSET 20"))
      expected = try Self.rows(live.database, tables: ["samples"])["samples"] ?? []
      try live.checkpoint()
    }
    let handle = try FileHandle(forUpdating: URL(fileURLWithPath: file.path))
    try handle.seek(toOffset: UInt64((leafPage - 1) * pageSize))
    try handle.write(contentsOf: Data(repeating: 0xFF, count: Int(pageSize)))
    try handle.close()

    var progress: StoreRebuild.Progress
    do {
      let live = try file.open()
      #expect(try live.quickCheck() != ["ok"])
      let rebuild = try StoreRebuild(livePath: file.path, purpose: .salvage)
      progress = rebuild.progress
      while !progress.isCopied { progress = try rebuild.copy(rows: 500) }
    }
    let lost = progress.unreadable.reduce(0) { $0 + $1.count }
    #expect(lost > 0)
    #expect(lost < 100)
    #expect(progress.copiedSamples == 3_000 - lost)

    let reopened = try file.open()
    let switched = try #require(reopened.openReport.switched)
    #expect(switched.purpose == .salvage)
    #expect(switched.keptAs == file.path + ".corrupt-20270115T080000Z")
    #expect(switched.unreadable == progress.unreadable)
    #expect(try reopened.quickCheck() == ["ok"])
    let kept = try #require(try Self.rows(reopened.database, tables: ["samples"])["samples"])
    #expect(kept.count == 3_000 - lost)
    // What was kept is exactly what was readable: every copied row as it was.
    #expect(Set(kept).isSubset(of: Set(expected)))
    #expect(try reopened.shifts().count == 1)
    #expect(FileManager.default.fileExists(atPath: file.path + ".corrupt-20270115T080000Z"))
    #expect(reopened.openReport.messages.first?.contains("samples that could not be read were left behind") == true)
  }

  @Test("a copy of a file replaced since (a backup restored over it) is removed, and the file left as it is")
  func aCopyOfAnotherFileIsDiscarded() throws {
    let file = try TemporaryStoreFile("rebuild-replaced")
    do {
      let live = try file.open()
      let shift = try live.startShift(at: at(1_700_000_000))
      try live.append(straightRoute(count: 40), toShift: shift.id)
      let rebuild = try StoreRebuild(livePath: file.path, purpose: .convert)
      #expect(try rebuild.copy(rows: 1_000).isCopied)
    }
    // Another file in its place, with other rows.
    for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: file.path + suffix) }
    do {
      let replaced = try file.open()
      let shift = try replaced.startShift(at: at(1_750_000_000))
      try replaced.append(straightRoute(count: 50, start: at(1_750_000_000)), toShift: shift.id)
    }
    let reopened = try file.open()
    #expect(reopened.openReport.switched == nil)
    #expect(reopened.openReport.problems.count == 1)
    #expect(reopened.openReport.problems.first?.contains("no longer holds the row 40") == true)
    #expect(try reopened.shifts().first?.shift.startedAt == at(1_750_000_000))
    #expect(try !file.fileNames().contains("dashpilot.sqlite.rebuild"))
  }
}
