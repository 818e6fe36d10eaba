import Foundation

/// Walks with known truth on other seeds than the committed ones (issue 40):
/// scripts/fixtures/generate_walk_seeds.py runs the walk generators of truth_receivers.py on
/// several seeds each, through the real gpsd, so that a figure at or under the path is shown
/// not to be one draw's luck. Made once (`GeneratedFixture`, three and a half minutes of
/// gpsfake) and read by `dashpilot-bench truth`: not by `make test`, where that much gpsfake
/// beside the suite pushed a timed uplink test past its limit.
public enum WalkSeeds {
  static let fixture = GeneratedFixture(
    folder: "walk-seeds",
    scripts: ["generate_walk_seeds.py", "truth_receivers.py", "generate_truth.py", "generate_drives.py"],
    marker: "walk-seeds.expected.json", timeout: 900)

  /// One walk: its gpsd JSON and what was walked.
  public struct Walk: Sendable {
    public var name: String
    public var log: URL
    public var trueMetres: Double
  }

  /// Every walk, by name, made first if missing (python3, gpsd and gpsfake needed:
  /// `.requiresPython3`, `.requiresGPSFake`).
  public static func walks() throws -> [Walk] {
    let directory = try fixture.directory()
    let data = try Data(contentsOf: directory.appendingPathComponent(fixture.marker))
    let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
    guard let cases = object?["cases"] as? [String: Any], !cases.isEmpty else {
      throw GeneratedFixture.Unavailable(description: "\(fixture.marker) names no walks")
    }
    return try cases.keys.sorted().map { name in
      guard let metres = (cases[name] as? NSNumber)?.doubleValue, metres > 0 else {
        throw GeneratedFixture.Unavailable(description: "\(fixture.marker): no true metres for \(name)")
      }
      return Walk(name: name, log: directory.appendingPathComponent("\(name).json"), trueMetres: metres)
    }
  }
}
