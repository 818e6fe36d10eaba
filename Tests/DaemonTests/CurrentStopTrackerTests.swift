import Capture
import DashPilotCore
import Foundation
import TestSupport
import Testing

@testable import Daemon

/// status's current stop follows the stop policy over a short tail of the kept rows: at
/// every moment of a real recording it says what the policy says of all the rows so far.
struct CurrentStopTrackerTests {
  @Test func theCityDrivesParkedStopAsThePolicyReadsItFromEveryRow() throws {
    let drive = try DriveFixture.named("city-drive")
    let samples = try GPSDLogReplay.replay(contentsOf: drive.json).samples
    let policy = StopPolicy()
    var tracker = CurrentStopTracker(policy: policy)
    var longestTail = 0
    var arrivals = Set<Date>()
    var standingRows: [Date] = []
    for (index, sample) in samples.enumerated() {
      tracker.kept(sample)
      longestTail = max(longestTail, tracker.tail.count)
      let now = sample.timestamp.addingTimeInterval(30)
      let current = tracker.current(now: now)
      if let current {
        arrivals.insert(current.arrival)
        standingRows.append(sample.timestamp)
      }
      if index % 10 == 0 || current != nil {
        let whole = policy.stops(in: samples[...index], now: now).last.flatMap { $0.end == .ongoing ? $0 : nil }
        #expect(current == whole, "at \(sample.timestamp)")
      }
    }
    // The 7-minute stop (10:10:01 to 10:17:06), from two minutes after it began until the
    // vehicle left (its first move, still beside where it stood, may yet be a shuffle within
    // the stop, as the policy reads it too); nothing else (the 30 s halt is shorter).
    let arrival = try #require(UTCTimestamp.parse("2024-05-01T10:10:01.000Z"))
    #expect(arrivals == [arrival])
    #expect(standingRows.allSatisfy { $0 >= arrival.addingTimeInterval(90) })
    #expect(standingRows.allSatisfy { $0 <= arrival.addingTimeInterval(425 + 10) }, "\(standingRows.last!)")
    #expect(!standingRows.isEmpty)
    // The tail is the stop's rows at most (a held sample a minute), never the drive.
    #expect(longestTail <= 12, "\(longestTail)")
    #expect(tracker.current(now: samples[samples.count - 1].timestamp.addingTimeInterval(600)) == nil)
  }

  /// `stop.ended`: each stop is told once, when a kept row lies away from where it stood,
  /// and is the very stop the policy reads from all the rows afterwards (the city drive's
  /// first move after its 7-minute stop is still beside it, so it is not over yet then).
  @Test func eachStopEndedIsThePolicysStopFromAllTheRowsToldOnce() throws {
    let drive = try DriveFixture.named("city-drive")
    let samples = try GPSDLogReplay.replay(contentsOf: drive.json).samples
    let policy = StopPolicy()
    var tracker = CurrentStopTracker(policy: policy)
    var told: [(stop: Stop, at: Date)] = []
    for sample in samples {
      if let ended = tracker.kept(sample) { told.append((ended, sample.timestamp)) }
    }
    let whole = policy.stops(in: samples).filter { $0.end != .recordingEnded }
    #expect(told.map(\.stop) == whole)
    let stop = try #require(told.first)
    #expect(stop.stop.arrival == UTCTimestamp.parse("2024-05-01T10:10:01.000Z"))
    #expect(stop.stop.end == .departed)
    // Told after its departure, once a row lay away from it: not at the departure itself.
    #expect(stop.at > stop.stop.departure, "\(stop.at) \(stop.stop.departure)")
  }

  /// A shift started by hand with the vehicle standing: the stop it leaves began with the
  /// shift, as `shift show` reads it from the shift's window, not when the rows began.
  @Test func aStopStandingFromTheShiftsStartBeganWithTheShift() throws {
    let t0 = Date(timeIntervalSince1970: 1_714_557_600)
    let here = GeoCoordinate(latitude: 51.5, longitude: -0.12)
    func row(_ second: Double, north: Double = 0, speed: Double = 0, held: Bool = false) -> RouteSample {
      RouteSample(
        timestamp: t0 + second, coordinate: GeoCoordinate(latitude: here.latitude + north / 111_320, longitude: -0.12),
        horizontalAccuracy: 3, speed: speed, captureSessionID: CaptureSessionID("cs-1"), isHeld: held)
    }
    var rows = [row(2)]
    for minute in 1...4 { rows.append(row(2 + 60 * Double(minute), held: true)) }
    for second in 1...5 { rows.append(row(242 + Double(second), north: 10 * Double(second), speed: 10)) }
    let policy = StopPolicy()
    var tracker = CurrentStopTracker(policy: policy)
    tracker.shiftStarted(at: t0)
    let told = rows.compactMap { tracker.kept($0) }
    let shown = policy.stops(in: rows, window: DateInterval(start: t0, end: t0 + 247))
    #expect(shown.count == 1)
    #expect(shown.first?.start == .shiftStarted && shown.first?.arrival == t0)
    #expect(told == shown)
  }
}
