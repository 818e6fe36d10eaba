import DashPilotCore
import Foundation
import Synchronization
import TestSupport
import Testing

/// The real `dashpilotd` recording the same drive from a real gpsd, fed in real time (one
/// fix a second), while its wall clock (libfaketime, preloaded into the daemon alone) is
/// right, years ahead, years behind, or stepped during the shift. Each run first shows the
/// faking reached the daemon (the shift's start, stamped before any fix, carries the faked
/// year); then its stored samples, capture sessions and figures must equal those of the
/// run with the right clock. The receiver's clock dates the samples and, once a fix is
/// kept, the shift itself.
@Suite("clock trouble: dashpilotd's wall clock years off or stepped mid-shift", .serialized)
struct DaemonClockTroubleTests {
  static let fixes = 40
  /// The steady drive's first fix: 2024-05-01 10:00:00Z.
  static let driveStart = Date(timeIntervalSince1970: 1_714_557_600)
  static let year: TimeInterval = 365.25 * 86_400

  /// The daemon's wall clock minus the receiver's time, from the start and (if it steps)
  /// from fix `step.atFix` on.
  struct ClockCase: Sendable, CustomStringConvertible {
    var description: String
    var skew: TimeInterval
    var step: (atFix: Int, skew: TimeInterval)?
    var startYear: Int
    var endYear: Int
    /// Whether the shift's provisional start, stamped by this wall clock, lies years away
    /// from the drive (so the daemon must re-date it from the first fix).
    var windowAwayFromDrive: Bool
    /// Whether the daemon is told the clock is synchronised (`SynchronisedClockShim`), so
    /// that fix ages are judged by it where it agrees with the receiver.
    var synchronised = false
  }

  static let right = ClockCase(
    description: "right", skew: 0, step: nil, startYear: 2024, endYear: 2024, windowAwayFromDrive: false)
  static let troubled: [ClockCase] = [
    ClockCase(
      description: "9 years ahead", skew: 9 * year, step: nil, startYear: 2033, endYear: 2024, windowAwayFromDrive: true
    ),
    ClockCase(
      description: "7 years behind (no RTC)", skew: -7 * year, step: nil, startYear: 2017, endYear: 2024,
      windowAwayFromDrive: true),
    ClockCase(
      description: "right, stepped back 4 years half-way", skew: 0, step: (fixes / 2, -4 * year),
      // The step comes after the first fix: the end is dated by the receiver, not the 2020 clock.
      startYear: 2024, endYear: 2024, windowAwayFromDrive: false),
    ClockCase(
      description: "7 years behind, stepped right a third of the way", skew: -7 * year, step: (fixes / 3, 0),
      startYear: 2017, endYear: 2024, windowAwayFromDrive: true),
    ClockCase(
      description: "synchronised but 9 years ahead", skew: 9 * year, step: nil, startYear: 2033, endYear: 2024,
      windowAwayFromDrive: true, synchronised: true),
    ClockCase(
      description: "synchronised but 3 years behind, stepped right a third of the way", skew: -3 * year,
      step: (fixes / 3, 0), startYear: 2021, endYear: 2024, windowAwayFromDrive: true, synchronised: true),
  ]

  /// The run that shows the daemon believes the shim: a synchronised clock a minute ahead
  /// agrees with the receiver closely enough to judge by, and judges every fix a minute
  /// old, past the ten seconds a fix may be.
  static let aMinuteAhead = ClockCase(
    description: "synchronised, a minute ahead", skew: 60, step: nil, startYear: 2024, endYear: 2024,
    windowAwayFromDrive: false, synchronised: true)

  /// What a run left: every value compared across runs, as text.
  struct Outcome: Sendable {
    var startedAt: String
    var endedAt: String
    var rows: [String]
    var sessions: [String]
    var rejected: String
    var liveDistance: String
    var endedDistance: String
    var summary: String
    /// Whether the daemon logged re-dating the shift's start from the first fix.
    var redated: Bool
  }

  static func canonical(_ object: Any?) -> String {
    guard let object, JSONSerialization.isValidJSONObject(object),
      let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
    else { return "\(String(describing: object))" }
    return String(decoding: data, as: UTF8.self)
  }

  static func year(_ iso: String) -> Int? { Int(iso.prefix(4)) }

  /// Seconds of a receiver without a fix (RMC status V, GGA quality 0) that gpsd reads
  /// before the drive: by the drive's first fix it has learned the receiver's cycle, so
  /// what it reports (and capture keeps) is the same in every run.
  static let warmUpSeconds = 8

  /// The warm-up, then the steady drive.
  static func writeDrive(in directory: URL) throws -> URL {
    var lines: [String] = []
    for k in 0..<warmUpSeconds {
      let time = String(format: "0959%02d.00", 60 - warmUpSeconds + k)
      lines.append(DaemonSteadyDrive.sentence("GPRMC,\(time),V,,,,,,,010524,,,N"))
      lines.append(DaemonSteadyDrive.sentence("GPGGA,\(time),,,,,0,00,99.99,,,,,,"))
      lines.append(DaemonSteadyDrive.sentence("GPGSA,A,1,,,,,,,,,,,,,99.99,99.99,99.99"))
      lines.append(DaemonSteadyDrive.sentence("GPGST,\(time),,,,,,,"))
    }
    let url = directory.appendingPathComponent("clock-drive.nmea")
    try (lines.joined(separator: "\n") + "\n" + DaemonSteadyDrive.nmea(fixes: fixes)).write(
      to: url, atomically: true, encoding: .utf8)
    return url
  }

  /// One run: gpsd fed the drive in real time, the daemon under `clock`.
  static func run(_ clock: ClockCase, shim: String) throws -> Outcome {
    let directory = try TestPaths.temporaryDirectory("daemon-clock")
    defer { try? FileManager.default.removeItem(at: directory) }
    let receiver = try GPSDPseudoReceiver(
      nmea: try Self.writeDrive(in: directory), secondsPerLine: 0.25)
    defer { receiver.stop() }
    try receiver.startGPSD()
    let faked = try FakedWallClock(directory: directory)
    try faked.set(wall: driveStart.addingTimeInterval(clock.skew - Double(warmUpSeconds)))
    var environment = faked.environment
    if clock.synchronised { environment["LD_PRELOAD"] = "\(shim) \(FakedWallClock.library)" }
    let daemon = try DaemonUnderTest(arguments: ["--gpsd", "127.0.0.1:\(receiver.port)"], environment: environment)
    defer { daemon.stop() }
    try daemon.waitUntilReady(timeout: 30)
    guard daemon.waitForStatus(timeout: 30, { $0.object("gpsd")?["connected"] as? Bool == true }) != nil else {
      throw DaemonTestFailure("\(clock): never connected to gpsd: \(daemon.log)")
    }
    let started = try daemon.controlJSON(["shift", "start"])
    // The first line is written now, stamped warmUpSeconds before driveStart: the clock's
    // skew holds from here.
    try faked.set(wall: driveStart.addingTimeInterval(clock.skew - Double(warmUpSeconds)))
    receiver.startFeeding()
    if let step = clock.step {
      guard receiver.waitForProgress(4 * (warmUpSeconds + step.atFix), timeout: Double(fixes) + 60) else {
        throw DaemonTestFailure("\(clock): the receiver never reached fix \(step.atFix)")
      }
      try faked.set(wall: driveStart.addingTimeInterval(Double(step.atFix) + step.skew))
    }
    guard receiver.waitForProgress(receiver.lineCount, timeout: Double(fixes) + 60) else {
      throw DaemonTestFailure("\(clock): the receiver never finished")
    }
    let lastFix = UTCTimestamp.string(driveStart.addingTimeInterval(Double(fixes - 1)))
    // The live figure is read once the last fix has arrived, every fix is judged (the
    // last instant is judged when the next report or the tick shows it complete) and every
    // kept fix is committed.
    guard
      let status = daemon.waitForStatus(
        timeout: 30,
        { status in
          let accepted = status.object("capture")?["accepted"] as? Int ?? -1
          let refused = (status.object("capture")?["rejected"] as? [String: Int])?.values.reduce(0, +) ?? 0
          return status.object("gpsd")?["last_fix_at"] as? String == lastFix && accepted + refused == fixes
            && status.object("shift.distance")?["usable_positions"] as? Int == accepted
        })
    else {
      throw DaemonTestFailure("\(clock): the last fix (\(lastFix)) never reached the store: \(daemon.log)")
    }
    let ended = try daemon.controlJSON(["shift", "end"])
    return Outcome(
      startedAt: started["started_at"] as? String ?? "", endedAt: ended["ended_at"] as? String ?? "",
      rows: try DaemonStoreSnapshot(database: daemon.databasePath).rows.sorted { $0.key < $1.key }.map(\.value),
      sessions: try DaemonDatabaseProbe.query(
        daemon.databasePath, "SELECT count(*), count(ended_at_ms) FROM capture_sessions"),
      rejected: canonical(status.object("capture")?["rejected"]),
      liveDistance: canonical(status.object("shift.distance")), endedDistance: canonical(ended.object("distance")),
      summary: ended["summary"] as? String ?? "",
      redated: daemon.log.contains("its start is re-dated to the receiver's"))
  }

  @Test(
    "wall clock years ahead or behind, stepped mid-shift, synchronised or not: the same samples, sessions and figures as the right clock",
    .requiresFaketime, .requiresCCompiler, .requiresGPSD)
  func wallClockTroubleLeavesCaptureAlone() throws {
    let shimDirectory = try TestPaths.temporaryDirectory("clock-shim")
    defer { try? FileManager.default.removeItem(at: shimDirectory) }
    let shim = try SynchronisedClockShim.build(in: shimDirectory)
    // Every run at once: each is a receiver at one fix a second, so they barely load the machine.
    let cases = [Self.right] + Self.troubled + [Self.aMinuteAhead]
    let outcomes = Mutex<[Int: Result<Outcome, any Error>]>([:])
    let done = DispatchGroup()
    for (index, clock) in cases.enumerated() {
      done.enter()
      let thread = Thread {
        let outcome = Result { try Self.run(clock, shim: shim) }
        outcomes.withLock { $0[index] = outcome }
        done.leave()
      }
      thread.start()
    }
    done.wait()
    let results = outcomes.withLock { $0 }

    let right = try #require(try results[0]?.get())
    // The right clock's run kept the drive in one session: every fix but the first, whose
    // report still carries the warm-up's error estimate (GST) and is refused as poor.
    #expect(right.rows.count == Self.fixes - 1, "\(right.rows.count) rows; refused: \(right.rejected)")
    #expect(right.rejected == #"{"poor_accuracy":1}"#)
    #expect(right.redated == false)
    let start = Int(Self.driveStart.timeIntervalSince1970 * 1000)
    #expect(right.rows.first?.split(separator: "|")[3] == "\(start + 1000)"[...])
    #expect(right.rows.last?.split(separator: "|")[3] == "\(start + (Self.fixes - 1) * 1000)"[...])
    #expect(right.sessions == ["1|1"])
    #expect(
      Self.year(right.startedAt) == 2024 && Self.year(right.endedAt) == 2024, "\(right.startedAt) \(right.endedAt)")
    // The shim reaches the daemon: judged by a synchronised clock a minute ahead, every fix
    // with an accuracy estimate is a minute old, and none is kept.
    let minuteAhead = try #require(try results[cases.count - 1]?.get())
    #expect(minuteAhead.rows == [])
    #expect(minuteAhead.rejected == #"{"poor_accuracy":1,"stale":\#(Self.fixes - 1)}"#)
    for (index, clock) in cases.enumerated().dropFirst().dropLast() {
      let outcome = try #require(try results[index]?.get(), "\(clock)")
      // The faking reached the daemon: with no fix yet, it could only stamp the shift's
      // start by the faked clock. By the end it dates by the receiver's clock.
      #expect(Self.year(outcome.startedAt) == clock.startYear, "\(clock): started \(outcome.startedAt)")
      #expect(Self.year(outcome.endedAt) == clock.endYear, "\(clock): ended \(outcome.endedAt)")
      #expect(outcome.rows == right.rows, "\(clock): \(outcome.rows.count) rows against \(right.rows.count)")
      #expect(outcome.sessions == right.sessions, "\(clock)")
      #expect(outcome.rejected == right.rejected, "\(clock)")
      // The running shift is measured with no window: the same figure, in the same words.
      #expect(outcome.liveDistance == right.liveDistance, "\(clock)")
      // The completed shift is dated on the receiver's clock (its start re-dated by the
      // first fix), so its window covers its drive and the figure is the right run's.
      #expect(outcome.redated == clock.windowAwayFromDrive, "\(clock)")
      #expect(outcome.endedDistance == right.endedDistance, "\(clock)")
      #expect(outcome.summary == right.summary, "\(clock)")
    }
  }
}
