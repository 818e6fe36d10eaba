import DashPilotCore
import Foundation
import Guidance
import TestSupport
import Testing

/// The TPV reports of a gpsd JSON log (`NAME.log.chk`), as the daemon would hand them to the
/// engine: accuracy from `eph`, else the larger of `epx`/`epy`, else none (infinite, so the
/// engine's first gate ignores the fix).
private func receiverFixes(_ name: String) throws -> [GuidanceFix] {
  let url = TestPaths.gpsdLogs.appendingPathComponent(name)
  let text = try String(contentsOf: url, encoding: .utf8)
  let iso = ISO8601DateFormatter()
  iso.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
  var fixes: [GuidanceFix] = []
  // Some captures end their lines with CRLF, which Swift reads as one Character.
  for line in text.split(whereSeparator: \.isNewline) {
    guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
      object["class"] as? String == "TPV",
      let latitude = object["lat"] as? Double, let longitude = object["lon"] as? Double,
      let time = (object["time"] as? String).flatMap(iso.date(from:))
    else { continue }
    var accuracy = Double.infinity
    if let eph = object["eph"] as? Double {
      accuracy = eph
    } else if let epx = object["epx"] as? Double, let epy = object["epy"] as? Double {
      accuracy = max(epx, epy)
    }
    fixes.append(
      GuidanceFix(
        timestamp: time, coordinate: GeoCoordinate(latitude: latitude, longitude: longitude),
        accuracy: accuracy, speed: object["speed"] as? Double, course: object["track"] as? Double))
  }
  return fixes
}

/// One position per second of the log: the route the receiver actually took.
private func ownTrack(_ fixes: [GuidanceFix], shiftedNorth metres: Double = 0) -> [GeoCoordinate] {
  var seen = Set<Date>()
  return fixes.filter { seen.insert($0.timestamp).inserted }.map {
    GeographicDistance.destination(from: $0.coordinate, bearing: 0, distance: metres)
  }
}

/// A real receiver (gpsd's `bundg_zeus_9` capture: 1,465 position reports over two and a half
/// minutes, about 3 m/s, three reports a second, some without an error estimate).
@Suite("Real receiver through the engine")
struct RealReceiverTests {
  static let log = "bundg_zeus_9.log.chk"

  @Test("following its own track: joined at once, never off route, arrived at the end")
  func ownTrackIsFollowed() throws {
    let fixes = try receiverFixes(Self.log)
    #expect(fixes.count == 1465)
    let route = try GuidanceRoute(ownTrack(fixes))
    for config in [GuidanceConfig.driving, .walking] {
      var engine = GuidanceEngine(route: route, config: config)
      var names: [String] = []
      for fix in fixes { names += engine.update(fix).map(\.name) }
      #expect(names.first == "joined")
      #expect(!names.contains("off_route"))
      #expect(names.last == "arrived")
      #expect(engine.phase == .arrived)
    }
  }

  @Test("a route 80 m to the side: joined loosely, then off route once the 10 s have passed")
  func shiftedRoute() throws {
    let fixes = try receiverFixes(Self.log)
    let route = try GuidanceRoute(ownTrack(fixes, shiftedNorth: 80))
    var engine = GuidanceEngine(route: route, config: .walking)
    var timed: [TimedGuidanceEvent] = []
    for fix in fixes { timed += engine.update(fix).map { TimedGuidanceEvent($0, at: fix.timestamp) } }
    let start = try #require(fixes.first?.timestamp)
    // 80 m is within the 100 m join; every later fix is past 35 m, so the misses start with
    // the second report of the first second and the duration gate binds 10 s later.
    #expect(timed.first?.event == .joined)
    #expect(timed.first?.timestamp == start)
    let departures = timed.filter { $0.event.name == "off_route" }
    #expect(departures.map(\.timestamp) == [start.addingTimeInterval(10)])
    #expect(!timed.contains { $0.event == .backOnRoute })
    #expect(engine.phase == .offRoute)
  }
}
