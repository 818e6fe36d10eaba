import DashPilotCore
import Foundation
import TestSupport
import Testing

/// An upgrade as the box lives it: the database dashpilotd 0.1.0 wrote
/// (Fixtures/databases, made by scripts/fixtures/make-release-database.sh), with a shift
/// left open when that daemon was stopped, opened by this dashpilotd. The shifts read as
/// 0.1.0 reported them, and the open shift goes on: a new capture session, a gap where
/// the daemon was down, and every row of before still there.
@Suite("a database from the previous release, under the new daemon", .serialized, .requiresGPSD)
struct ReleaseDatabaseUpgradeTests {
  static let release = "0.1.0"

  static func expected(_ name: String) throws -> [String: Any] {
    let url = TestPaths.fixtures.appendingPathComponent("databases/dashpilot-\(release).expected/\(name).json")
    return try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
  }

  /// What must not change about a shift across the upgrade: which it is, when, and what
  /// its rows measure (the words may be reworded by a later version; the numbers may not).
  /// 0.2.0 writes a distance in the one wire shape (`partial`, `inferred_continuity`,
  /// metres to the decimetre) and times with milliseconds where 0.1.0 wrote `is_partial`,
  /// `uses_inferred_continuity`, every digit and times cut to the second: the facts are the
  /// values, read from either spelling, to the precision both give.
  static func facts(_ shift: [String: Any]) -> [String] {
    let distance = shift["distance"] as? [String: Any] ?? [:]
    let metres = (distance["metres"] as? Double).map { "\(($0 * 10).rounded(.toNearestOrAwayFromZero) / 10)" } ?? "-"
    func time(_ key: String) -> String {
      guard let text = shift[key] as? String else { return "\(shift[key] ?? "-")" }
      // To the second, as 0.1.0 wrote it (its encoder dropped the fraction).
      return UTCTimestamp.parse(text).map { "\(Int($0.timeIntervalSince1970.rounded(.down)))" } ?? text
    }
    func either(_ new: String, _ old: String) -> Any { distance[new] ?? distance[old] ?? "-" }
    return [
      "id \(shift["id"] ?? "-")", "started \(time("started_at"))", "ended \(time("ended_at"))",
      "metres \(metres)", "segments \(distance["segments"] ?? "-")", "gaps \(distance["gaps"] ?? "-")",
      "positions \(distance["usable_positions"] ?? "-")", "partial \(either("partial", "is_partial"))",
      "inferred \(either("inferred_continuity", "uses_inferred_continuity"))",
    ]
  }

  /// The steady drive (north at 10 m/s) on 2024-06-01 from 10:00, twenty minutes after the
  /// open shift's last fix: after it in time, within any end-of-shift limit.
  static func continuation(in directory: URL) throws -> URL {
    let url = directory.appendingPathComponent("continuation.nmea")
    let text = DaemonSteadyDrive.nmea(fixes: 400).split(separator: "\n").map { line -> String in
      guard line.hasPrefix("$GPRMC") else { return String(line) }
      let body = line.dropFirst().prefix { $0 != "*" }.replacingOccurrences(of: ",010524,", with: ",010624,")
      return DaemonSteadyDrive.sentence(body)
    }
    try (text.joined(separator: "\n") + "\n").write(to: url, atomically: true, encoding: .utf8)
    return url
  }

  @Test("the shifts read as 0.1.0 reported them; the open one continues in a new session after a gap")
  func upgradeKeepsEverything() throws {
    let directory = try TestPaths.temporaryDirectory("release-upgrade")
    defer { try? FileManager.default.removeItem(at: directory) }
    let database = directory.appendingPathComponent("dashpilot.sqlite").path
    try FileManager.default.copyItem(
      atPath: TestPaths.fixtures.appendingPathComponent("databases/dashpilot-\(Self.release).sqlite").path,
      toPath: database)
    let tables = try Self.expected("tables")
    let openShift = try #require(tables["open_shift"] as? Int)
    let thenShifts = try #require(try Self.expected("shifts")["shifts"] as? [[String: Any]])
    let thenOpen = try #require(thenShifts.first { $0["id"] as? Int == openShift })
    let thenDistance = try #require(thenOpen["distance"] as? [String: Any])
    let thenSessions = try #require(try Self.expected("shift-\(openShift)")["capture_sessions"] as? Int)
    let rowsBefore = try DaemonDatabaseProbe.sampleIDs(database, shift: openShift)
    #expect(rowsBefore.count == (tables["samples_per_shift"] as? [String: Int])?[String(openShift)])

    let receiver = try GPSDPseudoReceiver(nmea: try Self.continuation(in: directory), secondsPerLine: 0.005)
    defer { receiver.stop() }
    try receiver.startGPSD()
    let daemon = try DaemonUnderTest(arguments: ["--gpsd", "127.0.0.1:\(receiver.port)", "--database", database])
    defer { daemon.stop() }
    try daemon.waitUntilReady()
    #expect(daemon.log.contains("shift \(openShift) is still open: capture resumes in a new session"), "\(daemon.log)")

    // Before any new fix: every shift as 0.1.0 listed it.
    let nowShifts = try #require(try daemon.controlJSON(["shifts"])["shifts"] as? [[String: Any]])
    #expect(nowShifts.map(Self.facts) == thenShifts.map(Self.facts))
    for then in thenShifts {
      let id = try #require(then["id"] as? Int)
      let shown = try daemon.controlJSON(["shift", "show", String(id)])
      let thenShown = try Self.expected("shift-\(id)")
      #expect(Self.facts(shown["shift"] as? [String: Any] ?? [:]) == Self.facts(then), "shift show \(id)")
      #expect(shown["capture_sessions"] as? Int == thenShown["capture_sessions"] as? Int, "shift \(id) sessions")
    }
    let status = try daemon.controlJSON(["status"])
    #expect(status.object("shift")?["id"] as? Int == openShift)
    #expect(status.object("shift")?["ended_at"] is NSNull)

    // The drive goes on: a new session, rows after the old ones, one more gap.
    guard daemon.waitForStatus(timeout: 20, { $0.object("gpsd")?["connected"] as? Bool == true }) != nil else {
      throw DaemonTestFailure("dashpilotd never connected to gpsd: \(daemon.log)")
    }
    receiver.startFeeding()
    let before = try #require(thenDistance["usable_positions"] as? Int)
    let driving = try #require(
      daemon.waitForStatus(timeout: 90) {
        ($0.object("shift.distance")?["usable_positions"] as? Int ?? 0) > before + 100
      }, "the open shift did not grow: \(daemon.log)")
    let session = try #require(driving.object("capture")?["session"] as? String)
    #expect(daemon.log.contains("capture session \(session) started for shift \(openShift)"))
    let distance = try #require(driving.object("shift.distance"))
    #expect(distance["segments"] as? Int == (thenDistance["segments"] as? Int ?? 0) + 1)
    #expect(distance["gaps"] as? Int == (thenDistance["gaps"] as? Int ?? 0) + 1)
    #expect(distance["partial"] as? Bool == true)
    #expect((distance["metres"] as? Double ?? 0) > (thenDistance["metres"] as? Double ?? 0) + 900)
    let shown = try daemon.controlJSON(["shift", "show", String(openShift)])
    #expect(shown["capture_sessions"] as? Int == thenSessions + 1)
    let rowsAfter = try DaemonDatabaseProbe.sampleIDs(database, shift: openShift)
    #expect(rowsAfter.isSuperset(of: rowsBefore), "\(rowsBefore.subtracting(rowsAfter).count) rows lost")
    #expect(rowsAfter.count > rowsBefore.count + 100)
    #expect((rowsAfter.subtracting(rowsBefore).min() ?? 0) > (rowsBefore.max() ?? .max))
    // The completed shifts are untouched by it.
    let after = try #require(try daemon.controlJSON(["shifts"])["shifts"] as? [[String: Any]])
    #expect(
      after.filter { $0["id"] as? Int != openShift }.map(Self.facts)
        == thenShifts.filter { $0["id"] as? Int != openShift }.map(Self.facts))
    #expect(try DaemonDatabaseProbe.integrity(database) == ["ok"])
  }
}
