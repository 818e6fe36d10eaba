import DashPilotCore
import Foundation
import TestSupport
import Testing

@testable import Store

/// The real dashpilotd looking after its file while it records: the whole-file check after
/// start-up, and the copy a damaged file or a 0.1.0 layout calls for, put in place by the
/// next start.
@Suite("dashpilotd: its store's file checked and copied while it records", .serialized)
struct StoreMaintenanceDaemonTests {
  /// A file with one completed shift of `samples` samples, one of whose leaf pages is then
  /// overwritten: what a card that lost a sector leaves.
  static func damagedFile(at path: String, samples: Int) throws {
    var leafPage: Int64 = 0
    var pageSize: Int64 = 0
    do {
      let store = try SampleStore(path: path)
      let shift = try store.startShift(at: Date(timeIntervalSince1970: 1_700_000_000))
      var builder = RouteBuilder(time: Date(timeIntervalSince1970: 1_700_000_000), session: CaptureSessionID("s1"))
      for _ in 1..<samples { builder.drive(20) }
      try store.append(builder.samples, toShift: shift.id)
      _ = try store.endShift(shift.id, at: Date(timeIntervalSince1970: 1_700_000_000 + Double(samples)))
      pageSize = try #require(try store.database.scalarInt64("PRAGMA page_size"))
      leafPage = try #require(
        try store.database.scalarInt64(
          "SELECT pageno FROM dbstat WHERE name = 'samples' AND pagetype = 'leaf' ORDER BY pageno LIMIT 1 OFFSET 20"))
      try store.checkpoint()
    }
    let handle = try FileHandle(forUpdating: URL(fileURLWithPath: path))
    try handle.seek(toOffset: UInt64((leafPage - 1) * pageSize))
    try handle.write(contentsOf: Data(repeating: 0xFF, count: Int(pageSize)))
    try handle.close()
  }

  @Test(
    "a damaged file found after start-up: capture goes on into it, its readable rows are copied, the next start switches"
  )
  func damagedFile() throws {
    let directory = try TestPaths.temporaryDirectory("store-damaged")
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("dashpilot.sqlite").path
    try Self.damagedFile(at: path, samples: 3_000)

    let first = try DaemonUnderTest(databasePath: path)
    try first.waitUntilReady()
    let damaged = try #require(first.waitForLog("is damaged (quick_check found"))
    #expect(damaged.contains("capture goes on into it"))
    let copied = try #require(first.waitForLog("holds all"))
    // Every sample that could be read: the shift's 3,000 less one damaged page's.
    let count = try #require(Int(copied.split(separator: " ").first { Int($0) != nil } ?? ""))
    #expect(count > 2_900 && count < 3_000)
    let store = try #require(first.controlJSON(["status"]).object("store"))
    #expect(store["check"] as? String == "damaged")
    #expect((store["check_findings"] as? [String])?.isEmpty == false)
    let rebuild = try #require(store["rebuild"] as? [String: Any])
    #expect(rebuild["purpose"] as? String == "salvage")
    #expect(rebuild["state"] as? String == "copied")
    #expect(rebuild["copied_samples"] as? Int == count)
    #expect((rebuild["unreadable"] as? [String])?.count == 1)
    let human = try first.control(["status"]).standardOutput
    #expect(human.contains(" · damaged: "))
    #expect(human.contains(" · a copy of its readable rows is ready: the next start of dashpilotd switches to it"))
    // Recording goes on into the damaged file meanwhile.
    #expect(try first.control(["shift", "start"]).status == 0)
    #expect(try first.control(["shift", "end"]).status == 0)
    #expect(first.stop() == 0)

    let second = try DaemonUnderTest(databasePath: path)
    defer { second.stop() }
    try second.waitUntilReady()
    let switched = try #require(second.waitForLog("replaced by a copy of its readable rows"))
    #expect(switched.contains("(\(count) samples; samples that could not be read were left behind"))
    let kept = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.contains(".corrupt-") }
    #expect(kept.count == 1)
    #expect(second.waitForLog("passed its integrity check") != nil)
    let shifts = try second.control(["shifts", "--json"])
    #expect(shifts.status == 0)
    let listed = try #require(
      (try JSONSerialization.jsonObject(with: Data(shifts.standardOutput.utf8)) as? [String: Any])?["shifts"]
        as? [[String: Any]])
    #expect(listed.map { $0["id"] as? Int } == [2, 1])
    #expect(try SampleStore(readingFrom: path).quickCheck() == ["ok"])
  }

  @Test("a 0.1.0 file: converted to the current layout while the daemon runs, switched by its next start")
  func convertsA010File() throws {
    let directory = try TestPaths.temporaryDirectory("store-convert")
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("dashpilot.sqlite").path
    try FileManager.default.copyItem(
      at: TestPaths.fixtures.appendingPathComponent("databases/dashpilot-0.1.0.sqlite"),
      to: URL(fileURLWithPath: path))
    // What it holds, counted on a copy of its own.
    let scratch = directory.appendingPathComponent("scratch.sqlite").path
    try FileManager.default.copyItem(atPath: path, toPath: scratch)
    let (shiftCount, sampleCount): (Int, Int64) = try {
      let store = try SampleStore(path: scratch)
      return (try store.shifts().count, try store.database.scalarInt64("SELECT count(*) FROM samples") ?? -1)
    }()
    #expect(sampleCount > 0)

    let first = try DaemonUnderTest(databasePath: path)
    try first.waitUntilReady()
    #expect(first.waitForLog("into the current layout (1 KiB pages, no AUTOINCREMENT) while recording") != nil)
    #expect(first.waitForLog("holds all \(sampleCount) samples") != nil)
    #expect(first.stop() == 0)

    let second = try DaemonUnderTest(databasePath: path)
    defer { second.stop() }
    try second.waitUntilReady()
    #expect(
      second.waitForLog(
        "now has the current layout (1 KiB pages, no AUTOINCREMENT): a copy of all \(sampleCount) samples") != nil)
    let after = try SampleStore(readingFrom: path)
    #expect(try after.hasCurrentLayout())
    #expect(try after.shifts().count == shiftCount)
    #expect(try after.database.scalarInt64("SELECT count(*) FROM samples") == sampleCount)
  }
}
