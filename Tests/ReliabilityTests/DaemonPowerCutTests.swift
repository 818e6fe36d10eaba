import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The real `dashpilotd`, recording a shift from a real gpsd, killed with SIGKILL at seeded
/// random moments and started again on the same database: what SQLite had committed when
/// the power went must survive every cut, and each restart is a new capture session that
/// the shift's figure shows as a gap.
@Suite("power cut: dashpilotd killed mid-shift and restarted", .serialized)
struct DaemonPowerCutTests {
  static let cuts = 20

  /// A daemon on `database`, connected to the receiver's gpsd.
  static func start(_ receiver: GPSDPseudoReceiver, database: String) throws -> DaemonUnderTest {
    let daemon = try DaemonUnderTest(arguments: ["--gpsd", "127.0.0.1:\(receiver.port)", "--database", database])
    try daemon.waitUntilReady(timeout: 30)
    guard daemon.waitForStatus(timeout: 30, { $0.object("gpsd")?["connected"] as? Bool == true }) != nil else {
      throw DaemonTestFailure("dashpilotd never connected to gpsd: \(daemon.log)")
    }
    return daemon
  }

  /// Waits until the daemon's current session has stored rows beyond `stored`.
  static func waitForNewRows(_ daemon: DaemonUnderTest, beyond stored: Int) -> [String: Any]? {
    daemon.waitForStatus(timeout: 40) { status in
      (status.object("shift.distance")?["usable_positions"] as? Int ?? 0) > stored
        && status.object("capture")?["session"] is String
    }
  }

  @Test("20 SIGKILLs at random points: integrity ok, no committed row lost, a new session and a gap each")
  func repeatedPowerCuts() throws {
    let directory = try TestPaths.temporaryDirectory("daemon-power-cut")
    defer { try? FileManager.default.removeItem(at: directory) }
    let database = directory.appendingPathComponent("dashpilot.sqlite").path
    // 12,000 fixes at 4 lines each, 2.5 ms a line: two minutes of feeding at most.
    let receiver = try GPSDPseudoReceiver(
      nmea: try DaemonSteadyDrive.write(fixes: 12_000, in: directory), secondsPerLine: 0.0025)
    defer { receiver.stop() }
    try receiver.startGPSD()
    var random = SeededGenerator(seed: 0x5EED_0008)

    let first = try Self.start(receiver, database: database)
    let started = try first.controlJSON(["shift", "start"])
    #expect(started["id"] as? Int == 1)
    receiver.startFeeding()
    var daemon = first
    var stored = 0
    var sessions: Set<String> = []
    for cut in 1...Self.cuts {
      let status = try #require(Self.waitForNewRows(daemon, beyond: stored), "cut \(cut): no rows stored: \(daemon.log)")
      sessions.insert(try #require(status.object("capture")?["session"] as? String))
      usleep(UInt32.random(in: 0...800_000, using: &random))
      let committed = try DaemonDatabaseProbe.sampleIDs(database, shift: 1)
      daemon.signal(SIGKILL)
      #expect(daemon.waitForExit(timeout: 10) == SIGKILL)
      #expect(daemon.process.terminationReason == .uncaughtSignal)
      daemon.stop()

      #expect(try DaemonDatabaseProbe.integrity(database) == ["ok"], "cut \(cut)")
      let survived = try DaemonDatabaseProbe.sampleIDs(database, shift: 1)
      let lost = committed.subtracting(survived)
      #expect(lost.isEmpty, "cut \(cut): \(lost.count) committed rows lost")
      #expect(survived.count >= committed.count)
      stored = survived.count
      #expect(try DaemonDatabaseProbe.query(database, "SELECT count(*) FROM capture_sessions") == ["\(cut)"], "cut \(cut)")

      daemon = try Self.start(receiver, database: database)
      #expect(daemon.log.contains("shift 1 is still open: capture resumes in a new session"), "cut \(cut)")
    }
    defer { daemon.stop() }
    let last = try #require(Self.waitForNewRows(daemon, beyond: stored), "after the last cut: \(daemon.log)")
    sessions.insert(try #require(last.object("capture")?["session"] as? String))
    #expect(sessions.count == Self.cuts + 1)

    let shown = try daemon.controlJSON(["shift", "show", "1"])
    #expect(shown["capture_sessions"] as? Int == Self.cuts + 1)
    let ended = try daemon.controlJSON(["shift", "end"])
    let distance = try #require(ended.object("distance"))
    #expect((distance["gaps"] as? Int ?? 0) >= Self.cuts, "\(distance)")
    #expect((distance["segments"] as? Int ?? 0) >= Self.cuts + 1, "\(distance)")
    #expect(try DaemonDatabaseProbe.integrity(database) == ["ok"])
    #expect(try DaemonDatabaseProbe.query(database, "SELECT count(*) FROM capture_sessions") == ["\(Self.cuts + 1)"])
  }
}
