import Capture
import DashPilotCore
import Foundation
import Testing

/// The receivers of issue 40 (scripts/fixtures/truth_receivers.py, each recorded by the
/// real gpsd): a u-blox cold-starting while parked, with and without the drive after it, a
/// phone's NMEA on a town walk, and generated walks across 1-5 m of noise and 1-2 m/s, with
/// and without speeds. Figures measured with `dashpilotctl replay Fixtures/truth/NAME.json`.
struct TruthReceiversTests {
  static func replay(_ name: String) throws -> ReplayResult {
    try GPSDLogReplay.replay(contentsOf: TruthTests.truthDirectory.appendingPathComponent("\(name).json"))
  }

  static func maximum(_ name: String) throws -> Double {
    let data = try Data(contentsOf: TruthTests.truthDirectory.appendingPathComponent("\(name).expected.json"))
    let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    return try #require((object["max_metres"] as? NSNumber)?.doubleValue)
  }

  /// Five minutes of a cold start (2D fixes 300 m off, the switch to 3D, a solution
  /// stepping 60 m a second as it settles, minutes converging) and ten parked: it recorded
  /// 277.4 m; the settling's courses point anywhere, so its agreeing steps are no drive.
  @Test func aUbloxColdStartingWhileParkedRecordsNothing() throws {
    let result = try Self.replay("ublox-cold-start-parked")
    #expect(result.distance.metres == 0)
    #expect(result.distance.metres <= (try Self.maximum("ublox-cold-start-parked")))
    #expect(result.distance.gaps == 0)
    #expect(result.distance.segments == 1)
    #expect(result.statistics.accepted == 17)
    #expect(result.statistics.held == 16)
  }

  /// The same cold start, then 3,303.5 m driven: it recorded 3,680 m; now under the drive.
  @Test func aUbloxColdStartThenADriveRecordsNoMoreThanTheDrive() throws {
    let expected = try TruthTests.truthCase("ublox-cold-start-drive")
    let result = try Self.replay("ublox-cold-start-drive")
    #expect(abs(result.distance.metres - 3287.1) < 0.05, "\(result.distance.metres) m")
    #expect(result.distance.metres <= expected.trueMetres)
    #expect(result.distance.gaps == 0)
    #expect(result.statistics.held == 9)
  }

  /// What each walk records, in metres: at or under its path. With speeds, each fix's speed
  /// is the magnitude of a noisy velocity, which adds up to more than was walked (phone-nmea-walk
  /// recorded 3,248.9 m of 3,132 m, town-walk-5m-2.0ms 1,172.9 m of 1,161.7 m): the speeds
  /// are counted less that bias, and a walker's lone speeds at a crossing not at all
  /// (`SpeedDistance`). Without speeds (gpsd fills in a speed from the positions, with no
  /// course) 5 m of noise made 1,196 m walked 3,156 m.
  static let walks: [(name: String, metres: Double)] = [
    ("phone-nmea-walk", 3069.9), ("town-walk-1m-1.0ms", 1106.1),
    ("town-walk-1m-2.0ms-no-speeds", 1041.8), ("town-walk-3m-1.0ms-no-speeds", 1042.9),
    ("town-walk-3m-1.5ms", 1125.4), ("town-walk-5m-1.0ms-no-speeds", 1140.5),
    ("town-walk-5m-2.0ms", 1154.5),
  ]

  @Test(arguments: walks.map(\.name))
  func aWalkRecordsAtOrUnderItsPathAndAbove90PerCent(_ name: String) throws {
    let walk = try #require(Self.walks.first { $0.name == name })
    let expected = try TruthTests.truthCase(name)
    #expect(expected.walking)
    let result = try Self.replay(name)
    let metres = result.distance.metres
    #expect(abs(metres - walk.metres) < 0.05, "\(name): \(metres) m")
    #expect(metres > 0.9 * expected.trueMetres)
    #expect(result.distance.gaps == 0)
    #expect(metres <= expected.trueMetres)
  }
}
