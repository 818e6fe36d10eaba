import DashPilotCore
import Foundation
import TestSupport
import Testing

@testable import Store

/// The databases released versions wrote, kept in Fixtures/databases with what that
/// version's dashpilotctl said about them (scripts/fixtures/make-release-database.sh):
/// a box upgraded from that version opens its file with this code, so this code must
/// migrate it, keep every row, and measure every shift as that version did.
@Suite("databases written by released versions")
struct ReleaseDatabaseTests {
  static let releases = ["0.1.0"]

  /// A copy of the release's file in a temporary directory (the fixture is never opened).
  static func copy(_ release: String) throws -> TemporaryStoreFile {
    let file = try TemporaryStoreFile("release-\(release)")
    try FileManager.default.copyItem(
      at: TestPaths.fixtures.appendingPathComponent("databases/dashpilot-\(release).sqlite"),
      to: URL(fileURLWithPath: file.path))
    return file
  }

  static func expected(_ release: String, _ name: String) throws -> [String: Any] {
    let url = TestPaths.fixtures.appendingPathComponent("databases/dashpilot-\(release).expected/\(name).json")
    return try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
  }

  static func count(_ store: SampleStore, _ sql: String) throws -> Int {
    Int(try store.database.scalarInt64(sql) ?? -1)
  }

  @Test("the file is migrated from its schema to the current one, every table's rows kept", arguments: releases)
  func migratesKeepingEveryRow(release: String) throws {
    let tables = try Self.expected(release, "tables")
    let file = try Self.copy(release)
    let store = try file.open()
    #expect(tables["version"] as? String == release)
    let userVersion = try #require(tables["user_version"] as? Int)
    #expect(store.openReport.foundSchemaVersion == Int32(userVersion))
    #expect(store.openReport.schemaVersion == Schema.latestVersion)
    #expect(store.openReport.movedAside == nil)
    #expect(store.openReport.problems.isEmpty, "\(store.openReport.problems)")
    #expect(try store.database.scalarInt64("PRAGMA user_version") == Int64(Schema.latestVersion))
    #expect(try store.integrityCheck() == ["ok"])
    // The release's pages stay as they were written: a new file's page size is not forced
    // on an existing one.
    #expect(try store.database.scalarInt64("PRAGMA page_size") == 4096)
    // Every table the release wrote, its own and the uplink's outbox, with all its rows.
    let rows = try #require(tables["rows"] as? [String: Int])
    #expect(rows["samples"] ?? 0 > 1_000 && rows["uplink_outbox"] ?? 0 > 0, "the fixture holds \(rows)")
    for (table, count) in rows {
      #expect(try Self.count(store, "SELECT count(*) FROM \"\(table)\"") == count, "rows of \(table)")
    }
    let perShift = try #require(tables["samples_per_shift"] as? [String: Int])
    for (shift, count) in perShift {
      #expect(try store.storedSamples(ofShift: Int64(shift)!).count == count, "samples of shift \(shift)")
    }
    #expect(try store.captureSessions().count == rows["capture_sessions"])
  }

  @Test("its shifts are the same shifts: ids, times, the open one still open", arguments: releases)
  func sameShifts(release: String) throws {
    let tables = try Self.expected(release, "tables")
    let listed = try #require(try Self.expected(release, "shifts")["shifts"] as? [[String: Any]])
    let file = try Self.copy(release)
    let store = try file.open()
    let shifts = try store.shifts()
    #expect(Set(shifts.map(\.id)) == Set(listed.compactMap { ($0["id"] as? Int).map(Int64.init) }))
    let openShift = try #require(tables["open_shift"] as? Int)
    #expect(try store.openShift()?.id == Int64(openShift))
    let iso = ISO8601DateFormatter()
    for entry in listed {
      let id = Int64(try #require(entry["id"] as? Int))
      let shift = try #require(shifts.first { $0.id == id })
      let startText = try #require(entry["started_at"] as? String)
      let started = try #require(iso.date(from: startText))
      #expect(abs(shift.shift.startedAt.timeIntervalSince(started)) < 1, "shift \(id) start")
      if let ended = entry["ended_at"] as? String {
        let end = try #require(iso.date(from: ended))
        #expect(abs((shift.shift.endedAt ?? .distantPast).timeIntervalSince(end)) < 1, "shift \(id) end")
      } else {
        #expect(shift.shift.endedAt == nil, "shift \(id) is open")
      }
    }
  }

  @Test("every shift measures as that release measured it", arguments: releases)
  func sameFigures(release: String) throws {
    let listed = try #require(try Self.expected(release, "shifts")["shifts"] as? [[String: Any]])
    let file = try Self.copy(release)
    let store = try file.open()
    for entry in listed {
      let id = Int64(try #require(entry["id"] as? Int))
      let then = try #require(entry["distance"] as? [String: Any])
      let now = try store.recordedDistance(ofShift: id)
      #expect(abs(now.metres - (then["metres"] as? Double ?? -1)) < 1e-6, "shift \(id): \(now.metres) m")
      #expect(now.segments == then["segments"] as? Int, "shift \(id) segments")
      #expect(now.gaps == then["gaps"] as? Int, "shift \(id) gaps")
      #expect(now.usablePositions == then["usable_positions"] as? Int, "shift \(id) positions")
      #expect(now.usesInferredContinuity == then["uses_inferred_continuity"] as? Bool, "shift \(id) continuity")
      #expect(now.isPartial == then["is_partial"] as? Bool, "shift \(id) partial")
    }
  }

  @Test("opened once, it is current: opening it again migrates nothing", arguments: releases)
  func migratedOnce(release: String) throws {
    let file = try Self.copy(release)
    do { _ = try file.open() }
    let again = try file.open()
    #expect(!again.openReport.wasMigrated)
    #expect(again.openReport.foundSchemaVersion == Schema.latestVersion)
    #expect(again.openReport.messages.isEmpty, "\(again.openReport.messages)")
  }
}
