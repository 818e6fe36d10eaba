import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The real `dashpilotd`, recording a shift from a real gpsd fed in real time (five fixes
/// a second, `RealTimeDrive`), killed with SIGKILL at seeded random moments and started
/// again on the same database: what SQLite had committed when the power went must survive
/// every cut, each restart is a new capture session that the shift's figure shows as a gap,
/// and what a cut loses is bounded by the store's batching.
///
/// The loss of a cut, in fix time: the newest fix handed to gpsd when the SIGKILL went
/// (read just after sending it, so never too small) minus the newest fix stored. The store
/// writes a batch once its oldest sample has waited one second (`SampleBatchPolicy`), so
/// at most 1 s plus one cycle (0.2 s) of samples are pending; gpsd reports a cycle at its
/// last sentence, one more cycle at most. That is 1.4 s; the bound of 2 s leaves 0.6 s for
/// the scheduling of a loaded machine.
@Suite("power cut: dashpilotd killed mid-shift and restarted", .serialized, .requiresGPSD)
struct DaemonPowerCutTests {
  static let cuts = 20
  static let maximumLossMilliseconds: Int64 = 2_000

  /// A daemon on `database`, connected to the gpsd on `port`.
  static func start(gpsdPort port: Int, database: String) throws -> DaemonUnderTest {
    let daemon = try DaemonUnderTest(arguments: ["--gpsd", "127.0.0.1:\(port)", "--database", database])
    try daemon.waitUntilReady(timeout: 30)
    guard daemon.waitForStatus(timeout: 30, { $0.object("gpsd")?["connected"] as? Bool == true }) != nil else {
      throw DaemonTestFailure("dashpilotd never connected to gpsd: \(daemon.log)")
    }
    return daemon
  }

  /// Waits until the daemon's current session has stored rows beyond `stored`. Generous:
  /// on a machine loaded by the whole suite at once (CI), gpsd or the daemon can be held
  /// back long enough that fixes arrive more than 10 s late, are rightly refused as stale,
  /// and are trusted again only once the estimator's 120 s window has passed.
  static func waitForNewRows(_ daemon: DaemonUnderTest, beyond stored: Int) -> [String: Any]? {
    daemon.waitForStatus(timeout: 150) { status in
      (status.object("shift.distance")?["usable_positions"] as? Int ?? 0) > stored
        && status.object("capture")?["session"] is String
    }
  }

  /// The stored rows of shift 1 in order: (capture session row id, fix time in ms).
  static func storedFixTimes(_ database: String) throws -> [(session: Int, time: Int64)] {
    try DaemonDatabaseProbe.query(
      database, "SELECT capture_session, fix_time_ms FROM samples WHERE shift_id = 1 ORDER BY id"
    )
    .compactMap { line in
      let fields = line.split(separator: "|")
      guard fields.count == 2, let session = Int(fields[0]), let time = Int64(fields[1]) else { return nil }
      return (session, time)
    }
  }

  @Test(
    "20 SIGKILLs at random points: integrity ok, no committed row lost, at most 2 s lost a cut, a new session and a gap each"
  )
  func repeatedPowerCuts() throws {
    let directory = try TestPaths.temporaryDirectory("daemon-power-cut")
    defer { try? FileManager.default.removeItem(at: directory) }
    let database = directory.appendingPathComponent("dashpilot.sqlite").path
    let drive = RealTimeDrive()
    let receiver = try PseudoTerminalReceiver(drive: drive, cycles: 0..<RealTimeDrive.maximumCycles)
    defer { receiver.unplug() }
    let gpsd = try HotplugGPSD(directory: directory, device: receiver.devicePath)
    defer { gpsd.stop() }
    var random = SeededGenerator(seed: 0x5EED_0008)

    let first = try Self.start(gpsdPort: gpsd.port, database: database)
    let started = try first.controlJSON(["shift", "start"])
    #expect(started["id"] as? Int == 1)
    receiver.startFeeding()
    var daemon = first
    var stored = 0
    var sessions: Set<String> = []
    var losses: [Int64] = []
    for cut in 1...Self.cuts {
      let status = try #require(
        Self.waitForNewRows(daemon, beyond: stored),
        "cut \(cut): no rows stored: \((try? daemon.controlJSON(["status"]).object("capture")).map { "\($0)" } ?? "no status") \(daemon.log)"
      )
      sessions.insert(try #require(status.object("capture")?["session"] as? String))
      // Anywhere in the store's one-second batch cycle.
      usleep(UInt32.random(in: 0...1_500_000, using: &random))
      let committed = try DaemonDatabaseProbe.sampleIDs(database, shift: 1)
      daemon.signal(SIGKILL)
      let newestFed = try #require(receiver.newestCycleWritten)
      #expect(daemon.waitForExit(timeout: 10) == SIGKILL)
      #expect(daemon.process.terminationReason == .uncaughtSignal)
      daemon.stop()

      #expect(try DaemonDatabaseProbe.integrity(database) == ["ok"], "cut \(cut)")
      let survived = try DaemonDatabaseProbe.sampleIDs(database, shift: 1)
      let lost = committed.subtracting(survived)
      #expect(lost.isEmpty, "cut \(cut): \(lost.count) committed rows lost")
      #expect(survived.count >= committed.count)
      stored = survived.count
      #expect(
        try DaemonDatabaseProbe.query(database, "SELECT count(*) FROM capture_sessions") == ["\(cut)"], "cut \(cut)")
      let newestStored = try #require(try Self.storedFixTimes(database).last?.time, "cut \(cut): nothing stored")
      let loss = RealTimeDrive.fixTimeMilliseconds(cycle: newestFed) - newestStored
      #expect(loss >= 0 && loss <= Self.maximumLossMilliseconds, "cut \(cut): \(loss) ms of fixes lost")
      losses.append(loss)

      daemon = try Self.start(gpsdPort: gpsd.port, database: database)
      #expect(daemon.log.contains("shift 1 is still open: capture resumes in a new session"), "cut \(cut)")
    }
    defer { daemon.stop() }
    let last = try #require(Self.waitForNewRows(daemon, beyond: stored), "after the last cut: \(daemon.log)")
    sessions.insert(try #require(last.object("capture")?["session"] as? String))
    #expect(sessions.count == Self.cuts + 1)

    // The live figure (no shift window: the drive's fix times are years before the
    // wall-clock shift) has exactly one gap per cut between the sessions' segments.
    let live = try #require(
      daemon.waitForStatus(timeout: 30) { $0.object("shift.distance")?["segments"] as? Int == Self.cuts + 1 },
      "the live figure never had \(Self.cuts + 1) segments: \(String(describing: try? daemon.controlJSON(["status"])))")
    #expect(live.object("shift.distance")?["gaps"] as? Int == Self.cuts)
    let shown = try daemon.controlJSON(["shift", "show", "1"])
    #expect(shown["capture_sessions"] as? Int == Self.cuts + 1)
    let ended = try daemon.controlJSON(["shift", "end"])
    let distance = try #require(ended.object("distance"))
    #expect((distance["gaps"] as? Int ?? 0) >= Self.cuts, "\(distance)")
    #expect((distance["segments"] as? Int ?? 0) >= Self.cuts + 1, "\(distance)")
    #expect(try DaemonDatabaseProbe.integrity(database) == ["ok"])
    #expect(try DaemonDatabaseProbe.query(database, "SELECT count(*) FROM capture_sessions") == ["\(Self.cuts + 1)"])

    // Inside each session nothing is missing: every stored row is the next cycle's fix.
    let rows = try Self.storedFixTimes(database)
    var holes: [String] = []
    for (previous, row) in zip(rows, rows.dropFirst()) where previous.session == row.session {
      if row.time - previous.time != Int64(1000 / RealTimeDrive.cyclesPerSecond) {
        holes.append("session \(row.session): \(previous.time) then \(row.time)")
      }
    }
    #expect(holes.isEmpty, "\(holes.prefix(10))")
    #expect(Set(rows.map(\.session)).count == Self.cuts + 1)

    let sorted = losses.sorted()
    print(
      "power cut: \(losses.count) cuts, fix time lost per cut: median \(sorted[sorted.count / 2]) ms,"
        + " worst \(sorted.last ?? 0) ms, all \(losses)")
  }
}
