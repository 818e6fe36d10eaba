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
}
