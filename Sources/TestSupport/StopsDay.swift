import DashPilotCore
import Foundation

/// The generated delivery day with 40 known stops (scripts/fixtures/generate_stops_day.py,
/// through the real gpsd), and how the stops found in it score against its truth. The day is
/// megabytes of JSON and takes gpsfake most of a minute, so it is made once into
/// `.build/generated/stops-day/KEY` (KEY: a hash of the generator and the scripts it
/// imports) and read from there by the tests and `dashpilot-bench stops`.
public enum StopsDay {
  public static let name = "delivery-stops"
  static let scripts = ["generate_stops_day.py", "generate_truth.py", "generate_drives.py"]

  public typealias Unavailable = GeneratedFixture.Unavailable

  static let fixture = GeneratedFixture(
    folder: "stops-day", scripts: scripts, marker: "\(name).expected.json", timeout: 600)

  /// The directory holding `delivery-stops.json` and `.expected.json`, made if missing
  /// (python3, gpsd and gpsfake needed: `.requiresPython3`, `.requiresGPSFake`).
  public static func directory() throws -> URL { try fixture.directory() }

  /// One stop the truth knows, or one halt (a red light, a queue) that is not a stop.
  public struct Known: Sendable {
    public var arrival: Date
    public var departure: Date
    public var note: String
    /// "stop" (to be found as one) or "gap" (no fixes: to be found as a capture gap).
    public var expect: String
  }

  /// The known stops and halts of the day.
  public static func truth(in directory: URL) throws -> (stops: [Known], halts: [Known]) {
    let data = try Data(contentsOf: directory.appendingPathComponent("\(name).expected.json"))
    let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
    func known(_ key: String) throws -> [Known] {
      try (object[key] as? [[String: Any]] ?? []).map { item in
        guard let arrival = UTCTimestamp.parse(item["arrival"] as? String ?? ""),
          let departure = UTCTimestamp.parse(item["departure"] as? String ?? "")
        else { throw Unavailable(description: "unreadable truth: \(item)") }
        return Known(
          arrival: arrival, departure: departure, note: item["note"] as? String ?? "",
          expect: item["expect"] as? String ?? "stop")
      }
    }
    return (try known("stops"), try known("halts"))
  }

  /// How the stops found score against the truth.
  public struct Score: Sendable {
    /// Known stops (those expected as stops) matched by exactly one stop found.
    public var found = 0
    public var expected = 0
    /// Stops found that overlap no known stop.
    public var invented = 0
    /// The worst distance in seconds between a found stop's arrival or departure and the truth's.
    public var worstEdge = 0.0
    /// Known stops expected as gaps (no fixes) that were found as a gap and as no stop.
    public var gapsAsExpected = 0
    public var gapsExpected = 0
    /// A line for each known stop missed or split, each stop invented.
    public var problems: [String] = []
  }

  /// Matches `found` (and the route's `gaps`) against the known stops.
  public static func score(found: [Stop], gaps: [RouteGap], truth: [Known]) -> Score {
    var score = Score()
    var matched = Set<Int>()
    func overlapping(_ known: Known) -> [Int] {
      found.indices.filter { found[$0].arrival <= known.departure && found[$0].departure >= known.arrival }
    }
    for known in truth {
      let hits = overlapping(known)
      matched.formUnion(hits)
      let time = UTCTimestamp.string(known.arrival) ?? "?"
      if known.expect == "gap" {
        score.gapsExpected += 1
        let covered = gaps.contains { $0.kind == .noFixes && $0.from <= known.arrival && $0.to >= known.departure }
        if hits.isEmpty && covered {
          score.gapsAsExpected += 1
        } else {
          score.problems.append("\(time) \(known.note): \(hits.count) stops found, covered by a gap: \(covered)")
        }
        continue
      }
      score.expected += 1
      guard hits.count == 1, let stop = hits.first.map({ found[$0] }) else {
        score.problems.append("\(time) \(known.note): \(hits.count) stops found")
        continue
      }
      score.found += 1
      let edge = max(
        abs(stop.arrival.timeIntervalSince(known.arrival)), abs(stop.departure.timeIntervalSince(known.departure)))
      score.worstEdge = max(score.worstEdge, edge)
    }
    for index in found.indices where !matched.contains(index) {
      score.invented += 1
      score.problems.append(
        "invented: \(UTCTimestamp.string(found[index].arrival) ?? "?") (\(found[index].duration) s)")
    }
    return score
  }
}
