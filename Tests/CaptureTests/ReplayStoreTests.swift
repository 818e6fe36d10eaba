import Capture
import DashPilotCore
import Foundation
import GPSD
import Store
import TestSupport
import Testing

/// Replay keeps its samples in a shift of a temporary SQLite database and measures the
/// stored rows, as the daemon does.
struct ReplayStoreTests {
  /// The times of the first and last TPVs with a position in a log, in log order.
  static func fixSpan(_ url: URL) throws -> DateInterval {
    var times: [Date] = []
    for line in try String(contentsOf: url, encoding: .utf8).split(separator: "\n") {
      if case let .tpv(tpv)? = GPSDJSONDecoder.decode(line), tpv.hasPosition, let time = tpv.time { times.append(time) }
    }
    let first = try #require(times.first)
    let last = try #require(times.last)
    return DateInterval(start: first, end: last)
  }

  @Test(arguments: ["city-drive", "short-drive", "parked"])
  func theFigureIsTheStoredRowsOverAShiftFromTheFirstFixToTheLast(_ name: String) throws {
    let drive = try DriveFixture.named(name)
    let result = try GPSDLogReplay.replay(contentsOf: drive.json)
    // What the store keeps of each accepted sample (1e-7 degree, 1 cm, 1 ms), measured
    // over the shift's window: exactly the replay's figure.
    let stored = try result.samples.map { sample throws(StoreError) in try SampleStore.storedForm(of: sample) }
    let expected = RouteMileageCalculator().distance(of: stored, covering: try Self.fixSpan(drive.json))
    #expect(result.distance == expected)
    #expect(result.storeFailure == nil)
  }

  @Test func theParkedCarsShiftIsCoveredToItsEndByHeldSamples() throws {
    let result = try GPSDLogReplay.replay(contentsOf: DriveFixture.named("parked").json)
    #expect(result.statistics.accepted == 21)
    // 20 minutes held still: a held sample a minute covers the shift to its last fix, so
    // neither the stop nor the shift's end is a gap.
    #expect(result.distance.gaps == 0)
    #expect(!result.distance.isPartial)
    #expect(result.distance.isMeasured)
    #expect(result.distance.metres == 0)
  }

  @Test func finishingTwiceGivesTheSameFigure() {
    var replay = GPSDLogReplay()
    for second in 0..<3 {
      replay.feed(line: Self.tpv("2024-05-01T10:00:0\(second).000Z", 51.5 + Double(second) * 0.0001))
    }
    let first = replay.finish()
    let second = replay.finish()
    #expect(abs(first.distance.metres - 22.24) < 0.01)
    #expect(second.distance == first.distance)
    #expect(second.storeFailure == nil)
  }

  /// A fix moving north 0.0001 degrees (11.12 m) a second, at the speed that carries it.
  static func tpv(_ time: String, _ latitude: Double) -> String {
    #"{"class":"TPV","mode":3,"time":"\#(time)","lat":\#(latitude),"lon":-0.12,"eph":10,"speed":11.12}"#
  }

  @Test func aFixTimeBeyondGPSTimeIsRefusedAndTheReplayGoesOn() {
    var replay = GPSDLogReplay()
    // Year 6000 is past what GPS time can express (2137): the decoder gives the TPV no time,
    // so the filter refuses it before the store could fail on it.
    replay.feed(line: Self.tpv("6000-01-01T00:00:00.000Z", 51.5))
    for second in 0..<5 {
      replay.feed(line: Self.tpv("2024-05-01T10:00:0\(second).000Z", 51.5 + Double(second) * 0.0001))
    }
    let result = replay.finish()
    #expect(result.storeFailure == nil)
    #expect(result.statistics.saveFailures == 0)
    #expect(result.statistics.rejected[.invalidCoordinate] == 1)
    #expect(result.statistics.accepted == 5)
    #expect(result.captureSessions == 1)
    #expect(abs(result.distance.metres - 44.48) < 0.01)
    #expect(result.distance.gaps == 0)
  }

  @Test func aLastFixBeyondGPSTimeLeavesTheShiftEndingAtTheLastKeptSample() {
    var replay = GPSDLogReplay()
    for second in 0..<5 {
      replay.feed(line: Self.tpv("2024-05-01T10:00:0\(second).000Z", 51.5 + Double(second) * 0.0001))
    }
    replay.feed(line: Self.tpv("6000-01-01T00:00:00.000Z", 51.5005))
    let result = replay.finish()
    #expect(result.storeFailure == nil)
    #expect(result.statistics.saveFailures == 0)
    #expect(result.statistics.rejected[.invalidCoordinate] == 1)
    #expect(result.distance.gaps == 0)
    #expect(abs(result.distance.metres - 44.48) < 0.01)
  }

  @Test func aWindowTheStoreCannotHoldFailsTheReplay() throws {
    let window = DateInterval(
      start: try #require(GPSDTime.parse("2024-05-01T09:00:00Z")),
      end: try #require(GPSDTime.parse("9000-01-01T00:00:00Z")))
    var replay = GPSDLogReplay(options: GPSDLogReplay.Options(window: window))
    for second in 0..<3 {
      replay.feed(line: Self.tpv("2024-05-01T10:00:0\(second).000Z", 51.5 + Double(second) * 0.0001))
    }
    let result = replay.finish()
    #expect(result.storeFailure == "time not stored: shift end 221845392000.0 s since 1970 is not a usable time")
  }
}
