import Capture
import DashPilotCore
import Foundation
import GPSD
import TestSupport
import Testing

/// Clock trouble at the capture level: the city drive (turns, a parked stop, a tunnel, the
/// receiver unplugged) captured into a real store as it arrives in real time, while the
/// box's system clock is right, unsynchronised and years off, synchronised but years off,
/// or stepped during the run. The system clock feeds both the fix-age rule (when it says
/// it is synchronised) and the store's batch timer; the receiver's clock alone dates the
/// samples. Every run must keep exactly the samples of the run without trouble, and give
/// exactly its figure.
@Suite struct ClockTroubleTests {
  /// What the system clock reads when a fix stamped `fixTime` arrives, and whether the
  /// kernel calls it synchronised; `progress` runs from 0 to 1 over the drive.
  struct SystemClock: Sendable, CustomStringConvertible {
    var description: String
    var read: @Sendable (_ fixTime: Date, _ progress: Double) -> (wall: Date, synchronised: Bool)
  }

  static let year = 365.25 * 86_400
  static let delay = 0.15

  static let troubled: [SystemClock] = [
    SystemClock(description: "unsynchronised, 7 years behind (a box without an RTC)") { fix, _ in
      (fix + delay - 7 * year, false)
    },
    SystemClock(description: "unsynchronised, 30 years ahead") { fix, _ in (fix + delay + 30 * year, false) },
    SystemClock(description: "synchronised but 3 years behind") { fix, _ in (fix + delay - 3 * year, true) },
    SystemClock(description: "synchronised but 12 years ahead") { fix, _ in (fix + delay + 12 * year, true) },
    SystemClock(description: "right, then stepped back 4 years half-way") { fix, progress in
      (fix + delay - (progress < 0.5 ? 0 : 4 * year), true)
    },
    SystemClock(description: "5 years behind and unsynchronised, then NTP steps it right a third of the way") {
      fix, progress in progress < 1.0 / 3 ? (fix + delay - 5 * year, false) : (fix + delay, true)
    },
    SystemClock(description: "right, then stepped an hour ahead, then back again") { fix, progress in
      (fix + delay + ((0.3..<0.6).contains(progress) ? 3_600 : 0), true)
    },
    SystemClock(description: "right, then stepped 90 s behind at 40%") { fix, progress in
      (fix + delay - (progress < 0.4 ? 0 : 90), true)
    },
  ]

  static let rightClock = SystemClock(description: "synchronised and right") { fix, _ in (fix + delay, true) }

  struct Outcome {
    var samples: [RouteSample]
    var distance: RouteDistance
    var sessions: Int
    var rejected: [SampleRejection: Int]
  }

  /// Captures the city drive with `clock` as the system clock.
  static func capture(with clock: SystemClock) throws -> Outcome {
    let drive = try DriveFixture.named("city-drive")
    let lines = try String(contentsOf: drive.json, encoding: .utf8).split(separator: "\n").map(String.init)
    let capture = try StoreCapture(label: "clock")
    var firstFix: Date?
    var lastFix: Date?
    let span = Double(drive.durationSeconds)
    for line in lines {
      // A report arrives on the monotonic clock when its fix was made, plus the link's delay.
      var fixTime = lastFix
      if case let .tpv(tpv)? = GPSDJSONDecoder.decode(line), let time = tpv.time {
        fixTime = time
        lastFix = time
        if firstFix == nil { firstFix = time }
      }
      let elapsed = fixTime.flatMap { time in firstFix.map { time.timeIntervalSince($0) } } ?? 0
      let arrival = 5_000 + elapsed + delay
      let reading = clock.read(fixTime ?? Date(timeIntervalSince1970: 1_714_557_600), min(1, elapsed / span))
      capture.batchClock = reading.wall
      capture.feed(line: line, arrival: arrival, wallClock: reading.synchronised ? reading.wall : nil)
    }
    let samples = try capture.finish()
    return Outcome(
      samples: samples, distance: try capture.store.recordedDistance(ofShift: capture.shiftID),
      sessions: capture.service.statistics.sessionsStarted, rejected: capture.service.statistics.rejected)
  }

  @Test func theUntroubledRunMatchesTheDrive() throws {
    let drive = try DriveFixture.named("city-drive")
    let baseline = try Self.capture(with: Self.rightClock)
    #expect(baseline.sessions == drive.captureSessions)
    #expect(baseline.distance.gaps == drive.gaps)
    #expect(abs(baseline.distance.metres - drive.metres) / drive.metres <= drive.toleranceFraction)
    #expect(baseline.rejected[.stale] == nil)
    #expect(StoredShiftInvariants.violations(in: baseline.samples) == [])
    // The same as an offline replay of the log, which no clock takes part in.
    let replayed = try GPSDLogReplay.replay(contentsOf: drive.json)
    #expect(baseline.samples.map(\.timestamp) == replayed.samples.map(\.timestamp))
  }

  @Test(arguments: troubled)
  func clockTroubleChangesNothingCaptured(_ clock: SystemClock) throws {
    let baseline = try Self.capture(with: Self.rightClock)
    let troubled = try Self.capture(with: clock)
    #expect(troubled.samples.count == baseline.samples.count)
    #expect(troubled.samples.map(\.timestamp) == baseline.samples.map(\.timestamp))
    #expect(troubled.samples.map(\.coordinate) == baseline.samples.map(\.coordinate))
    #expect(troubled.samples.map(\.horizontalAccuracy) == baseline.samples.map(\.horizontalAccuracy))
    #expect(troubled.distance == baseline.distance)
    #expect(troubled.sessions == baseline.sessions)
    #expect(troubled.rejected == baseline.rejected)
  }
}
