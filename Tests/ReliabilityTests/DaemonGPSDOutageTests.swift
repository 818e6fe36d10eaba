import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// gpsd missing when the daemon starts, then started, then killed and started again, with
/// a shift open throughout: the daemon goes on answering, comes back to gpsd by itself each
/// time in a new capture session, and waits without spinning (its CPU time, read from
/// /proc, barely moves while there is no gpsd to talk to).
@Suite("gpsd absent, started, killed and restarted under a running dashpilotd", .serialized, .requiresGPSD)
struct DaemonGPSDOutageTests {
  /// CPU seconds a waiting daemon may use in `idleSeconds`: a busy loop would use them all.
  static let idleCPUBound = 0.5
  static let idleSeconds: UInt32 = 20

  static func waitForSession(_ daemon: DaemonUnderTest, otherThan previous: String?) -> [String: Any]? {
    daemon.waitForStatus(timeout: 60) { status in
      guard status.object("gpsd")?["connected"] as? Bool == true,
        let session = status.object("capture")?["session"] as? String
      else { return false }
      return session != previous && (status.object("capture")?["accepted"] as? Int ?? 0) > 0
    }
  }

  @Test(
    "absent at start-up: answers, idles without spinning, connects when gpsd comes; killed: reconnects in a new session"
  )
  func absentThenKilled() throws {
    let directory = try TestPaths.temporaryDirectory("daemon-gpsd-outage")
    defer { try? FileManager.default.removeItem(at: directory) }
    let receiver = try GPSDPseudoReceiver(
      nmea: try DaemonSteadyDrive.write(fixes: 12_000, in: directory), secondsPerLine: 0.005)
    defer { receiver.stop() }
    // No gpsd yet: nothing listens on the receiver's port.
    let daemon = try DaemonUnderTest(arguments: ["--gpsd", "127.0.0.1:\(receiver.port)"])
    defer { daemon.stop() }
    try daemon.waitUntilReady(timeout: 30)
    #expect(try daemon.controlJSON(["shift", "start"])["id"] as? Int == 1)
    let waiting = try daemon.controlJSON(["status"])
    #expect(waiting.object("gpsd")?["connected"] as? Bool == false)
    #expect(waiting.object("capture")?["session"] == nil || waiting.object("capture")?["session"] is NSNull)

    // Let the first reconnect attempts pass, then measure a stretch of pure waiting.
    sleep(2)
    let before = try #require(ProcessAccounting.cpuSeconds(of: daemon.pid))
    sleep(Self.idleSeconds)
    let after = try #require(ProcessAccounting.cpuSeconds(of: daemon.pid))
    #expect(
      after - before < Self.idleCPUBound,
      "dashpilotd used \(after - before) s of CPU in \(Self.idleSeconds) s without gpsd")
    #expect(try daemon.controlJSON(["status"]).object("gpsd")?["connected"] as? Bool == false)

    try receiver.startGPSD()
    receiver.startFeeding()
    let first = try #require(Self.waitForSession(daemon, otherThan: nil), "never connected: \(daemon.log)")
    let firstSession = try #require(first.object("capture")?["session"] as? String)
    #expect(first.object("gpsd")?["device"] as? String == receiver.devicePath)

    receiver.killGPSD()
    let lost = try #require(
      daemon.waitForStatus(timeout: 30) { $0.object("gpsd")?["connected"] as? Bool == false },
      "the daemon never noticed gpsd was gone: \(daemon.log)")
    #expect(lost.object("shift")?["id"] as? Int == 1)
    // Still answering, and idle again while gpsd is down.
    let downBefore = try #require(ProcessAccounting.cpuSeconds(of: daemon.pid))
    sleep(5)
    let downAfter = try #require(ProcessAccounting.cpuSeconds(of: daemon.pid))
    #expect(downAfter - downBefore < Self.idleCPUBound * 5 / Double(Self.idleSeconds) + 0.2)
    #expect(try daemon.controlJSON(["status"]).object("gpsd")?["connected"] as? Bool == false)

    try receiver.startGPSD()
    let second = try #require(Self.waitForSession(daemon, otherThan: firstSession), "never reconnected: \(daemon.log)")
    let secondSession = try #require(second.object("capture")?["session"] as? String)
    #expect(secondSession != firstSession)
    #expect(daemon.log.contains("capture session \(firstSession) of shift 1 ended"))
    #expect(daemon.log.contains("capture session \(secondSession) started for shift 1"))
    // The new session's rows are committed in batches: the shift counts it once they are in.
    var sessions: Int?
    let deadline = Date(timeIntervalSinceNow: 30)
    repeat {
      sessions = try daemon.controlJSON(["shift", "show", "1"])["capture_sessions"] as? Int
      if sessions == 2 { break }
      usleep(200_000)
    } while Date() < deadline
    #expect(sessions == 2)
    #expect(daemon.process.isRunning)
  }
}
