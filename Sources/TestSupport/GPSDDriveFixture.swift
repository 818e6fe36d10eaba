import Foundation

/// A generated drive under Fixtures/drives (see scripts/fixtures/generate_drives.py): its
/// NMEA for gpsfake, its gpsd JSON for replay, and the figures the generator says replay
/// should give.
public struct DriveFixture: Sendable {
  public var name: String
  public var metres: Double
  public var toleranceFraction: Double
  public var durationSeconds: Int
  public var fixes: Int
  public var secondsWithoutFix: Int
  public var captureSessions: Int
  public var gaps: Int

  public static var directory: URL { TestPaths.fixtures.appendingPathComponent("drives") }

  public var nmea: URL { Self.directory.appendingPathComponent("\(name).nmea") }
  public var json: URL { Self.directory.appendingPathComponent("\(name).json") }

  /// Seconds without a fix before the first fix (a receiver warming up).
  public var warmUpSeconds: Int

  /// Every drive's name.
  public static let names = ["city-drive", "short-drive", "parked", "never-fixes"]

  public static func named(_ name: String) throws -> DriveFixture {
    let url = directory.appendingPathComponent("\(name).expected.json")
    let data = try Data(contentsOf: url)
    guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any],
      let metres = object["metres"] as? Double ?? (object["metres"] as? Int).map(Double.init),
      let tolerance = object["tolerance_fraction"] as? Double,
      let duration = object["duration_seconds"] as? Int, let fixes = object["fixes"] as? Int,
      let without = object["seconds_without_fix"] as? Int,
      let sessions = object["capture_sessions"] as? Int, let gaps = object["gaps"] as? Int,
      let warmUp = object["warm_up_seconds"] as? Int
    else { throw GPSDFake.Failure(description: "\(url.path) is not a drive's expected figures") }
    return DriveFixture(
      name: name, metres: metres, toleranceFraction: tolerance, durationSeconds: duration,
      fixes: fixes, secondsWithoutFix: without, captureSessions: sessions, gaps: gaps,
      warmUpSeconds: warmUp)
  }
}
