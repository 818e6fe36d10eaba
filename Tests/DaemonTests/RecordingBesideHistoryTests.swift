import DashPilotCore
import Foundation
import TestSupport
import Testing

/// Issue 24's test: a real gpsd-fed daemon records while a large history is listed, shown
/// and exported. Those requests read on the store's read connections, off the loop, so
/// `status` (answered on the loop) never waits for them, and capture's timed commits are
/// never late (the store's own counters say so, not a sleep).
@Suite("recording beside a large history", .serialized, .requiresGPSD)
struct RecordingBesideHistoryTests {
  /// What a loop that waited for a reader would show: a status answer held for as long as
  /// the request (seconds here), against the milliseconds of one that did not.
  static let statusLimit: Duration = .milliseconds(1000)

  @Test("status answers and commits stay on time while 30 shifts are listed, one shown and exported")
  func requestsBesideCapture() throws {
    let directory = try TestPaths.temporaryDirectory("beside-history")
    defer { try? FileManager.default.removeItem(at: directory) }
    let history = try HistoryFile(
      path: directory.appendingPathComponent("dashpilot.sqlite").path, shifts: 30, hours: 8, until: "2026-12-01")
    let longest = try #require(history.counts["longestShiftID"])
    let longestSamples = try #require(history.counts["longestShiftSamples"])
    let receiver = try GPSDPseudoReceiver(
      nmea: try DaemonSteadyDrive.write(fixes: 300, in: directory), secondsPerLine: 0.05)
    try receiver.startGPSD()
    defer { receiver.killGPSD() }
    let daemon = try DaemonUnderTest(
      arguments: ["--gpsd", "127.0.0.1:\(receiver.port)"], databasePath: history.path)
    defer { daemon.stop() }
    try daemon.waitUntilReady()
    #expect(daemon.waitForStatus(timeout: 20) { $0.object("gpsd")?["connected"] as? Bool == true } != nil)
    #expect(try daemon.control(["shift", "start"]).status == 0)
    receiver.startFeeding()
    #expect(daemon.waitForStatus(timeout: 60) { ($0.object("capture")?["accepted"] as? Int ?? 0) >= 20 } != nil)

    let probe = try StatusProbe(socketPath: daemon.socketPath)
    probe.start()
    let listed = try daemon.controlJSON(["shifts", "--limit", "1000"])
    let shown = try daemon.controlJSON(["shift", "show", "\(longest)"])
    let gpx = directory.appendingPathComponent("longest.gpx").path
    let exported = try daemon.control(["export", "\(longest)", "--format", "gpx", "--output", gpx])
    let answers = probe.stop()

    #expect((listed["shifts"] as? [Any])?.count == 31)
    #expect(shown.object("shift")?["id"] as? Int == longest)
    #expect(exported.status == 0, "\(exported.standardError)")
    let points = try String(contentsOfFile: gpx, encoding: .utf8).components(separatedBy: "<trkpt ").count - 1
    #expect(points == longestSamples)
    // Status was asked all along and answered each time within the limit.
    #expect(answers.count >= 5, "\(answers.count) status answers")
    #expect(answers.allSatisfy { $0 < Self.statusLimit }, "\(answers.max() ?? .zero)")

    // The drive's end is stored, and none of capture's commits came a second late.
    #expect(receiver.waitForProgress(receiver.lineCount, timeout: 120))
    let end = try #require(
      daemon.waitForStatus(timeout: 30) {
        ($0.object("gpsd")?["last_fix_at"] as? String).flatMap { UTCTimestamp.parse($0) }
          == Date(timeIntervalSince1970: 1_714_557_600 + 299)
      }, "capture stalled: \(daemon.log)")
    let store = try #require(end.object("store"))
    #expect((store["commits"] as? Int ?? 0) > 10)
    #expect(store["commits_late"] as? Int == 0, "\(store)")
    #expect((store["worst_commit_delay_ms"] as? Int ?? Int.max) < 1000, "\(store)")
  }
}

/// Asks `status` on a connection of its own, one request after the other, and keeps how long
/// each answer took.
final class StatusProbe: @unchecked Sendable {
  private let client: RawSocketClient
  private let lock = NSLock()
  private var running = false
  private var answers: [Duration] = []
  private var thread: Thread?

  init(socketPath: String) throws { client = try RawSocketClient(path: socketPath) }

  func start() {
    lock.withLock { running = true }
    let thread = Thread { [self] in
      var id = 0
      while lock.withLock({ running }) {
        id += 1
        let clock = ContinuousClock()
        let began = clock.now
        guard client.send("{\"v\":1,\"id\":\(id),\"cmd\":\"status\"}\n"), client.readLine(timeout: 30) != nil
        else { break }
        let took = clock.now - began
        lock.withLock { answers.append(took) }
        usleep(50_000)
      }
    }
    self.thread = thread
    thread.start()
  }

  /// Stops asking and returns the answers' times.
  func stop() -> [Duration] {
    lock.withLock { running = false }
    while thread?.isFinished == false { usleep(10_000) }
    return lock.withLock { answers }
  }
}
