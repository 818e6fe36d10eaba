import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The control flood (`ControlFloodTests`) while a shift is recording: two real dashpilotd
/// on one real gpsd fed a drive in real time, one flooded by 300 control clients (half of
/// them idle, sending garbage or over-long lines), the other left alone. Both must store
/// the very same rows, every fix of the drive, and the flooded one must commit rows in
/// every few seconds of the flood: the fix pipeline never waits for the control socket.
@Suite("control flood while a shift records", .serialized, .requiresGPSD)
struct ControlFloodRecordingTests {
  /// Seconds of fixes fed (five a second): the flood runs for all of them.
  static let driveSeconds = 40
  /// Rows must grow in every window this long (the store commits about once a second).
  static let window = 4.0

  static let storedRowsSQL =
    "SELECT fix_time_ms, latitude_e7, longitude_e7, horizontal_accuracy_cm, speed_cm_s, course_cdeg"
    + " FROM samples WHERE shift_id = 1 ORDER BY id"

  static func startDaemon(gpsdPort port: Int, config: String? = nil) throws -> DaemonUnderTest {
    let daemon = try DaemonUnderTest(config: config, arguments: ["--gpsd", "127.0.0.1:\(port)"])
    try daemon.waitUntilReady(timeout: 30)
    guard daemon.waitForStatus(timeout: 30, { $0.object("gpsd")?["connected"] as? Bool == true }) != nil else {
      throw DaemonTestFailure("dashpilotd never connected to gpsd: \(daemon.log)")
    }
    #expect(try daemon.controlJSON(["shift", "start"])["id"] as? Int == 1)
    return daemon
  }

  @Test("300 clients while recording: the good ones answered, the same rows as without the flood, rows grow throughout")
  func floodWhileRecording() throws {
    let directory = try TestPaths.temporaryDirectory("flood-recording")
    defer { try? FileManager.default.removeItem(at: directory) }
    let drive = RealTimeDrive()
    let lastCycle = drive.leadIn + Self.driveSeconds * RealTimeDrive.cyclesPerSecond - 1
    let receiver = try PseudoTerminalReceiver(drive: drive, cycles: 0..<(lastCycle + 1))
    defer { receiver.unplug() }
    let gpsd = try HotplugGPSD(directory: directory, device: receiver.devicePath)
    defer { gpsd.stop() }
    let quiet = try Self.startDaemon(gpsdPort: gpsd.port)
    defer { quiet.stop() }
    let flooded = try Self.startDaemon(
      gpsdPort: gpsd.port, config: "[Control]\nMaximumClients=1000\nIdleTimeout=300\n")
    defer { flooded.stop() }
    receiver.startFeeding()
    // The flood starts once the shift is storing rows.
    _ = try #require(
      flooded.waitForStatus(timeout: 30) { ($0.object("shift.distance")?["usable_positions"] as? Int ?? 0) > 0 },
      "no rows stored: \(flooded.log)")

    let monitor = StoredRowMonitor(database: flooded.databasePath)
    monitor.start()
    let good = try (0..<ControlFloodTests.wellFormed).map { _ in try RawSocketClient(path: flooded.socketPath) }
    let silent = try (0..<ControlFloodTests.idle).map { _ in try RawSocketClient(path: flooded.socketPath) }
    let noisy = try (0..<ControlFloodTests.garbage).map { _ in try RawSocketClient(path: flooded.socketPath) }
    var tally = FloodTally()
    var rounds = 0
    // Round after round until the drive has been fed whole.
    repeat {
      tally.add(try ControlFloodTests.floodRound(rounds, daemon: flooded, good: good, noisy: noisy))
      rounds += 1
    } while !receiver.waitForCycle(lastCycle, timeout: 0) || rounds < 2
    let counts = monitor.stop()
    #expect(tally.answered == ControlFloodTests.wellFormed * rounds * ControlFloodTests.requestsPerRound)
    #expect(tally.garbageRefused == ControlFloodTests.garbage * rounds * ControlFloodTests.garbageLines.count)
    #expect(tally.overlongRefused == ControlFloodTests.overlongPerRound * rounds)
    var idleAnswered = 0
    for (index, client) in silent.enumerated() {
      if client.ask(#"{"v":1,"id":\#(index + 1),"cmd":"status"}"#)?["id"] as? Int == index + 1 { idleAnswered += 1 }
    }
    #expect(idleAnswered == ControlFloodTests.idle)

    // Rows grew in every window of the flood while fixes were being fed.
    let feedEnd = try #require(receiver.feedFinishedAt)
    let stalls = StoredRowMonitor.windowsWithoutGrowth(counts, window: Self.window, until: feedEnd)
    #expect(counts.count >= Int(Double(Self.driveSeconds) / 2), "only \(counts.count) readings")
    #expect(stalls.isEmpty, "no new rows in: \(stalls)")

    // Both have every fix of the drive once the last batch is in, and the same rows.
    let lastFixTime = "\(RealTimeDrive.fixTimeMilliseconds(cycle: lastCycle))"
    let quietStatus = try quiet.controlJSON(["status"])
    for daemon in [quiet, flooded] {
      var newest: [String] = []
      let deadline = Date(timeIntervalSinceNow: 30)
      repeat {
        newest = try DaemonDatabaseProbe.query(daemon.databasePath, "SELECT max(fix_time_ms) FROM samples")
        if newest == [lastFixTime] { break }
        usleep(200_000)
      } while Date() < deadline
      #expect(newest == [lastFixTime], "the last fix never reached \(daemon.databasePath)")
      #expect(try daemon.controlJSON(["shift", "end"])["id"] as? Int == 1)
    }
    let quietRows = try DaemonDatabaseProbe.query(quiet.databasePath, Self.storedRowsSQL)
    let floodedRows = try DaemonDatabaseProbe.query(flooded.databasePath, Self.storedRowsSQL)
    // Every fix of the drive but its first: gpsd reports the first fixed cycle with the
    // error estimate of the searching one before it (DOP 99.99), which capture refuses as
    // poor accuracy, rightly. Both daemons see that the same way.
    let expectedTimes = ((drive.leadIn + 1)...lastCycle).map { "\(RealTimeDrive.fixTimeMilliseconds(cycle: $0))" }
    #expect(
      quietRows.map { String($0.prefix { $0 != "|" }) } == expectedTimes,
      "first row \(quietRows.first ?? "none"), last \(quietRows.last ?? "none"), \(quietRows.count) rows; \(quietStatus.object("capture") ?? [:])"
    )
    #expect(floodedRows.count == quietRows.count)
    #expect(
      floodedRows == quietRows,
      "first difference at row \(Array(zip(floodedRows, quietRows)).firstIndex { $0.0 != $0.1 } ?? -1)")
    let growth = zip(counts, counts.dropFirst()).map { $1.rows - $0.rows }
    print(
      "flood while recording: \(rounds) rounds, \(tally.answered) answers, \(floodedRows.count) rows flooded"
        + " vs \(quietRows.count) quiet, \(counts.count) readings, smallest growth between readings \(growth.min() ?? 0),"
        + " longest interval between readings \(String(format: "%.2f", StoredRowMonitor.longestInterval(counts))) s,"
        + " longest without new rows \(String(format: "%.2f", StoredRowMonitor.longestWithoutGrowth(counts, until: feedEnd))) s"
    )
    #expect(flooded.process.isRunning && quiet.process.isRunning)
  }
}

/// Reads the stored row count of a database about once a second, on a thread of its own,
/// through the sqlite3 shell (read-only), noting when each reading was taken.
final class StoredRowMonitor: @unchecked Sendable {
  struct Reading: Sendable {
    var at: Double
    var rows: Int
  }

  let database: String
  private let lock = NSCondition()
  private var readings: [Reading] = []
  private var stopping = false
  private var done = false

  init(database: String) { self.database = database }

  func start() {
    let thread = Thread { [self] in run() }
    thread.name = "test.row-monitor"
    thread.start()
  }

  private func run() {
    while !lock.withLock({ stopping }) {
      let at = MonotonicTime.now()
      if let line = try? DaemonDatabaseProbe.query(database, "SELECT count(*) FROM samples").first, let rows = Int(line)
      {
        lock.withLock { readings.append(Reading(at: at, rows: rows)) }
      }
      lock.lock()
      if !stopping { _ = lock.wait(until: Date(timeIntervalSinceNow: 1)) }
      lock.unlock()
    }
    lock.withLock {
      done = true
      lock.broadcast()
    }
  }

  /// Stops the thread and returns the readings.
  func stop() -> [Reading] {
    lock.lock()
    defer { lock.unlock() }
    stopping = true
    lock.broadcast()
    while !done { lock.wait() }
    return readings
  }

  /// Each reading after which the count had not grown by the first reading at least
  /// `window` seconds later, described; only windows that end by `end` (while rows were
  /// still coming) count.
  static func windowsWithoutGrowth(_ readings: [Reading], window: Double, until end: Double) -> [String] {
    let start = readings.first?.at ?? 0
    var stalls: [String] = []
    for (index, reading) in readings.enumerated() {
      guard let later = readings[(index + 1)...].first(where: { $0.at >= reading.at + window }) else { break }
      if later.at > end { break }
      if later.rows <= reading.rows {
        stalls.append(
          String(format: "%.1f-%.1f s: %d rows then %d", reading.at - start, later.at - start, reading.rows, later.rows)
        )
      }
    }
    return stalls
  }

  /// The longest time between two readings that saw the count grow (until `end`).
  static func longestWithoutGrowth(_ readings: [Reading], until end: Double) -> Double {
    var longest = 0.0
    var lastGrowth = readings.first?.at ?? 0
    for (previous, reading) in zip(readings, readings.dropFirst())
    where reading.at <= end && reading.rows > previous.rows {
      longest = max(longest, reading.at - lastGrowth)
      lastGrowth = reading.at
    }
    return longest
  }

  static func longestInterval(_ readings: [Reading]) -> Double {
    zip(readings, readings.dropFirst()).map { $1.at - $0.at }.max() ?? 0
  }
}
