import Capture
import ControlProtocol
import DashPilotCore
import Foundation
import GPSD
import Guidance
import PlatformSupport
import Testing

@testable import Daemon

/// The recording component's decisions, without a process, a socket or a database: every
/// input carries its own clock reading, and the wall and monotonic clocks move apart at will.
@Suite("Recording coordinator")
struct RecordingCoordinatorTests {
  static let drive = Date(timeIntervalSince1970: 1_714_557_600)  // 2024-05-01T10:00:00Z
  static let wallNineYearsAhead = Date(timeIntervalSince1970: 1_714_557_600 + 9 * 365.25 * 86_400)

  static func reading(wall: Date = drive, monotonic: Double) -> ClockReading {
    ClockReading(wall: wall, monotonic: monotonic, isWallClockSynchronised: false)
  }

  static func outcome(_ events: [CaptureEvent], written: Bool = false, diskFull: Bool = false) -> CaptureOutcome {
    CaptureOutcome(shift: 4, events: events, storeWrote: written, diskFull: diskFull)
  }

  func announced(_ actions: [RecordingAction]) -> [DaemonEvent] {
    actions.compactMap { if case .announce(let report) = $0 { report.event } else { nil } }
  }

  @Test("gpsd: unreachable said once until it answers, then every change of connection and receiver")
  func gpsdConnection() throws {
    var coordinator = RecordingCoordinator(gpsdAddress: "localhost:2947", shiftClockTolerance: 120)
    let refused = "cannot connect to gpsd at localhost:2947: Connection refused"
    var said = coordinator.reported(.disconnected(reason: refused), captured: nil, now: Self.reading(monotonic: 0))
    #expect(
      said == [
        .announce(
          EventReport(
            .gpsdUnreachable(.init(refused)),
            "cannot connect to gpsd at localhost:2947: Connection refused; retrying", priority: .warning))
      ])
    said = coordinator.reported(.disconnected(reason: refused), captured: nil, now: Self.reading(monotonic: 0))
    #expect(said == [])
    said = coordinator.reported(
      .connected(GPSDEndpoint(host: "localhost", port: 2947)), captured: nil, now: Self.reading(monotonic: 0))
    #expect(said == [.announce(EventReport(.gpsdConnected, "connected to gpsd at localhost:2947", priority: .info))])
    said = coordinator.reported(
      .report(.version(GPSDVersion(release: "3.22", protocolMajor: 3, protocolMinor: 14)), arrival: 1), captured: nil,
      now: Self.reading(monotonic: 0))
    #expect(said == [.log(.info, "gpsd 3.22 answered", .none)])
    said = coordinator.reported(
      .report(.device(GPSDDevice(path: "/dev/ttyACM0", activated: true)), arrival: 1), captured: nil,
      now: Self.reading(monotonic: 0))
    #expect(announced(said) == [.gpsdDevice(.init(device: "/dev/ttyACM0"))])
    let tpv = GPSDTPV(
      mode: .threeDimensional, time: Self.drive, latitude: 51.5, longitude: -0.12, eph: 5, speed: 10, track: 90,
      device: "/dev/ttyACM0")
    said = coordinator.reported(.report(.tpv(tpv), arrival: 2), captured: nil, now: Self.reading(monotonic: 0))
    #expect(
      said == [
        .observeFix(
          GuidanceFix(
            timestamp: Self.drive, coordinate: GeoCoordinate(latitude: 51.5, longitude: -0.12), accuracy: 5, speed: 10,
            course: 90))
      ])
    said = coordinator.reported(
      .report(.device(GPSDDevice(path: "/dev/ttyACM0", activated: false)), arrival: 3), captured: nil,
      now: Self.reading(monotonic: 0))
    #expect(announced(said) == [.gpsdDeviceRemoved(.init(device: "/dev/ttyACM0"))])
    said = coordinator.reported(
      .disconnected(reason: "gpsd closed the connection"), captured: nil, now: Self.reading(monotonic: 0))
    #expect(announced(said) == [.gpsdDisconnected(.init("gpsd closed the connection"))])
    // Unreachable again after the connection was lost: said once more.
    said = coordinator.reported(.disconnected(reason: refused), captured: nil, now: Self.reading(monotonic: 0))
    #expect(announced(said) == [.gpsdUnreachable(.init(refused))])
    said = coordinator.reported(.disconnected(reason: refused), captured: nil, now: Self.reading(monotonic: 0))
    #expect(said == [])
  }

  @Test("a session's counts start with the fix that started it and its start is the wall clock's")
  func sessionTally() {
    var coordinator = RecordingCoordinator(gpsdAddress: "localhost:2947", shiftClockTolerance: 120)
    let sample = RouteSample(
      timestamp: Self.drive, coordinate: GeoCoordinate(latitude: 51.5, longitude: -0.12), horizontalAccuracy: 5,
      captureSessionID: CaptureSessionID("s1"))
    // What the session before counted is not this one's.
    _ = coordinator.captured(
      Self.outcome([.accepted(sample), .accepted(sample), .accepted(sample), .rejected(.poorAccuracy)]),
      now: Self.reading(monotonic: 40))
    let started = coordinator.captured(
      Self.outcome([
        .sessionStarted(CaptureSessionID("s2"), .fixesStarted(device: "/dev/ttyACM0")), .accepted(sample),
        .rejected(.poorAccuracy), .accepted(sample), .rejected(.noFix),
      ]),
      now: Self.reading(wall: Self.wallNineYearsAhead, monotonic: 50))
    #expect(
      Array(started.prefix(1)) == [
        .announce(
          EventReport(
            .captureSessionStarted(.init(session: "s2", shift: 4, reason: "fixes started flowing from /dev/ttyACM0")),
            "capture session s2 started for shift 4: fixes started flowing from /dev/ttyACM0"))
      ])
    #expect(
      coordinator.tally.section(session: CaptureSessionID("s2"))
        == CaptureSection(
          session: "s2", sessionStartedAt: Self.wallNineYearsAhead, accepted: 2,
          rejected: ["poor_accuracy": 1, "no_fix": 1], held: 0, accuracyAssumed: 0, datedByArrival: 0))
  }

  @Test("a shift stamped by a wall clock nine years ahead is re-dated by its first kept fix")
  func redating() {
    var coordinator = RecordingCoordinator(gpsdAddress: "localhost:2947", shiftClockTolerance: 120)
    let now = Self.reading(wall: Self.wallNineYearsAhead, monotonic: 1_000)
    let stamp = coordinator.shiftStartStamp(now: now)
    #expect(stamp == Self.wallNineYearsAhead)
    coordinator.shiftStarted(4, stamped: stamp, now: now)
    let sample = RouteSample(
      timestamp: Self.drive.addingTimeInterval(5), coordinate: GeoCoordinate(latitude: 51.5, longitude: -0.12),
      horizontalAccuracy: 5, captureSessionID: CaptureSessionID("s1"))
    let start = Self.drive.addingTimeInterval(-7.5)
    let kept = coordinator.captured(
      Self.outcome([.accepted(sample)]), now: Self.reading(wall: Self.wallNineYearsAhead, monotonic: 1_012.5))
    #expect(
      kept == [
        .observeAccepted(sample),
        .redateShiftStart(shift: 4, to: start, wallClockError: Self.wallNineYearsAhead.timeIntervalSince(start)),
      ])
    // The end is the last kept fix's time carried forward on the monotonic clock.
    #expect(
      coordinator.shiftEndStamp(now: Self.reading(wall: Self.wallNineYearsAhead, monotonic: 1_100))
        == Self.drive.addingTimeInterval(92.5))
  }

  @Test("a failing store: said once, retried after 1, 2, 4 ... up to 30 s by the monotonic clock, recovered once")
  func storeBackOff() {
    var coordinator = RecordingCoordinator(gpsdAddress: "localhost:2947", shiftClockTolerance: 120)
    let reason = "1 samples not saved: I/O error: disk I/O error"
    let failed = coordinator.captured(
      Self.outcome([.saveFailed(reason)]), now: Self.reading(monotonic: 100))
    #expect(
      failed == [
        .announce(
          EventReport(.storeError(.init(shift: 4, reason: reason)), "store write failed: \(reason)", priority: .error))
      ])
    let again = coordinator.captured(
      Self.outcome([.saveFailed(reason)]), now: Self.reading(monotonic: 100.5))
    #expect(again == [])
    // The first tick that sees the hold arms the retry a second ahead.
    var now = 101.0
    let armed = coordinator.isStoreRetryDue(holding: true, now: Self.reading(monotonic: now))
    #expect(!armed)
    now += 1
    var waits: [Double] = []
    for _ in 0..<7 {
      let due = coordinator.isStoreRetryDue(holding: true, now: Self.reading(monotonic: now))
      #expect(due)
      let retried = coordinator.storeRetried(succeeded: false, now: Self.reading(monotonic: now))
      #expect(retried == [])
      var next = now + 0.5
      // The wall clock is stepped back a year while the store stays failing; nothing changes.
      while !coordinator.isStoreRetryDue(
        holding: true, now: Self.reading(wall: Self.drive.addingTimeInterval(-31_557_600), monotonic: next))
      {
        next += 0.5
      }
      waits.append(next - now)
      now = next
    }
    #expect(waits == [2, 4, 8, 16, 30, 30, 30])
    let recovered = coordinator.storeRetried(succeeded: true, now: Self.reading(monotonic: now))
    #expect(recovered == [.announce(EventReport(.storeRecovered, "store writes succeed again (after: \(reason))"))])
    #expect(coordinator.storeHealth.error == nil)
    let wroteAgain = coordinator.storeWrote()
    #expect(wroteAgain == [])
  }

  @Test(
    "the watchdog: a store failing 300 s is not progress unless the disk is full; nor is a loop that stopped ticking")
  func makingProgress() {
    var failing = RecordingCoordinator(gpsdAddress: "localhost:2947", shiftClockTolerance: 120)
    _ = failing.captured(Self.outcome([.saveFailed("I/O error")]), now: Self.reading(monotonic: 100))
    #expect(failing.isMakingProgress(now: Self.reading(monotonic: 400)))
    #expect(!failing.isMakingProgress(now: Self.reading(monotonic: 400.5)))

    var full = RecordingCoordinator(gpsdAddress: "localhost:2947", shiftClockTolerance: 120)
    _ = full.captured(
      Self.outcome([.saveFailed("disk full")], diskFull: true), now: Self.reading(monotonic: 100))
    #expect(full.isMakingProgress(now: Self.reading(monotonic: 100_000)))

    var ticking = RecordingCoordinator(gpsdAddress: "localhost:2947", shiftClockTolerance: 120)
    _ = ticking.ticked(captured: nil, now: Self.reading(monotonic: 50))
    // A wall clock stepped a day forward is no stall.
    #expect(ticking.isMakingProgress(now: Self.reading(wall: Self.drive.addingTimeInterval(86_400), monotonic: 60)))
    #expect(!ticking.isMakingProgress(now: Self.reading(monotonic: 60.5)))
  }
}
