import CSQLite
import DashPilotCore
import Foundation
import TestSupport
import Testing

@testable import Store

@Suite struct CorruptDatabaseTests {
  static let openedAt = Date(timeIntervalSince1970: 1_800_000_000)  // 2027-01-15T08:00:00Z

  @Test func aFileThatIsNotADatabaseIsMovedAsideAndAFreshOneStarted() throws {
    let file = try TemporaryStoreFile("not-a-db")
    let garbage = Data((0..<10_000).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) })
    try garbage.write(to: URL(fileURLWithPath: file.path))

    let store = try file.open(now: Self.openedAt)
    let kept = file.path + ".corrupt-20270115T080000Z"
    let moved = try #require(store.openReport.movedAside)
    #expect(moved.files == [.init(from: file.path, to: kept)])
    #expect(moved.reason.contains("not a database"))
    #expect(try Data(contentsOf: URL(fileURLWithPath: kept)) == garbage)
    #expect(store.openReport.messages.first?.contains("failed its integrity check") == true)
    #expect(store.openReport.schemaVersion == 7)
    #expect(try store.integrityCheck() == ["ok"])
    #expect(try store.shifts().isEmpty)
    _ = try store.startShift(at: at(1_700_000_000))
    #expect(try store.shifts().count == 1)
  }

  /// Start-up reads nothing in proportion to the file: a damaged page deep in it is found by
  /// the whole-file check the daemon runs after start-up, not at open.
  @Test func aDatabaseWithADamagedPageOpensAndItsWholeFileCheckFindsTheDamage() throws {
    let file = try TemporaryStoreFile("damaged")
    var rootPage: Int64 = 0
    var pageSize: Int64 = 0
    do {
      let store = try file.open()
      let shift = try store.startShift(at: at(1_700_000_000))
      try store.append(straightRoute(count: 2_000), toShift: shift.id)
      rootPage = try #require(
        try store.database.scalarInt64("SELECT rootpage FROM sqlite_master WHERE name = 'samples'"))
      pageSize = try #require(try store.database.scalarInt64("PRAGMA page_size"))
      try store.database.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    }
    // Break the samples table's root page: its first byte says what kind of page it is.
    let handle = try FileHandle(forUpdating: URL(fileURLWithPath: file.path))
    try handle.seek(toOffset: UInt64((rootPage - 1) * pageSize))
    try handle.write(contentsOf: Data([0x6B, 0xFF, 0xFF, 0xFF]))
    try handle.close()

    let store = try file.open(now: Self.openedAt)
    #expect(store.openReport.movedAside == nil)
    #expect(try store.shifts().count == 1)
    let findings = try store.quickCheck()
    #expect(findings != ["ok"])
    #expect(findings.contains { $0.contains("malformed") || $0.contains("Tree \(rootPage)") })
    // A reader's connection finds the same.
    #expect(try SampleStore(readingFrom: file.path).quickCheck() == findings)
  }

  @Test func aSecondDamagedFileInTheSameSecondKeepsTheFirst() throws {
    let file = try TemporaryStoreFile("twice")
    try Data(repeating: 0x41, count: 4096).write(to: URL(fileURLWithPath: file.path))
    do { _ = try file.open(now: Self.openedAt) }
    try Data(repeating: 0x42, count: 4096).write(to: URL(fileURLWithPath: file.path))
    for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: file.path + suffix) }
    let store = try file.open(now: Self.openedAt)
    #expect(store.openReport.movedAside?.files.first?.to == file.path + ".corrupt-20270115T080000Z-2")
    let first = try Data(contentsOf: URL(fileURLWithPath: file.path + ".corrupt-20270115T080000Z"))
    #expect(first == Data(repeating: 0x41, count: 4096))
  }

  @Test func theKeptFileIsNamedForTheTimeEvenWithAnUnbelievableClock() {
    #expect(DatabaseOpener.utcStamp(Self.openedAt) == "20270115T080000Z")
    #expect(DatabaseOpener.utcStamp(Date(timeIntervalSince1970: 0.999)) == "19700101T000000Z")
    #expect(DatabaseOpener.utcStamp(Date(timeIntervalSince1970: .nan)) == "19700101T000000Z")
    #expect(DatabaseOpener.utcStamp(Date(timeIntervalSince1970: 1e300)) == "99991231T235959Z")
  }

  @Test func resultCodesMapToTheCasesCaptureActsOn() {
    func kind(_ code: Int32) -> String {
      switch StoreError.sqlite(code: code, message: "m", operation: "op") {
      case .diskFull: "diskFull"
      case .ioError: "ioError"
      case .corrupt: "corrupt"
      case .busy: "busy"
      case .cannotWrite: "cannotWrite"
      case .constraint: "constraint"
      case .sqlite: "sqlite"
      default: "other"
      }
    }
    #expect(kind(SQLITE_FULL) == "diskFull")
    #expect(kind(SQLITE_IOERR) == "ioError")
    #expect(kind(778) == "ioError")  // SQLITE_IOERR_WRITE
    #expect(kind(1034) == "ioError")  // SQLITE_IOERR_FSYNC
    #expect(kind(SQLITE_CORRUPT) == "corrupt")
    #expect(kind(SQLITE_NOTADB) == "corrupt")
    #expect(kind(SQLITE_BUSY) == "busy")
    #expect(kind(SQLITE_READONLY) == "cannotWrite")
    #expect(kind(2067) == "constraint")  // SQLITE_CONSTRAINT_UNIQUE
    #expect(kind(SQLITE_ERROR) == "sqlite")
    let error = StoreError.sqlite(code: 778, message: "disk I/O error", operation: "save 3 samples")
    #expect(
      error.sqliteFailure == SQLiteFailure(operation: "save 3 samples", resultCode: 778, message: "disk I/O error"))
    #expect(error.description == "I/O error: save 3 samples failed: disk I/O error (SQLite result code 778)")
  }
}
