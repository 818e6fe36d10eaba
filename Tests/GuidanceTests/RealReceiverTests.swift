import Capture
import DashPilotCore
import Foundation
import GPSD
import Guidance
import TestSupport
import Testing

/// The TPV reports of a gpsd JSON log (`NAME.log.chk`), decoded and turned into fixes by the
/// daemon's own code (`GPSDJSONDecoder`, `GuidanceFix(tpv)`), as the engine is fed them.
private func receiverFixes(_ name: String) throws -> [GuidanceFix] {
  let text = try String(contentsOf: TestPaths.gpsdLogs.appendingPathComponent(name), encoding: .utf8)
  // Some captures end their lines with CRLF, which Swift reads as one Character.
  return text.split(whereSeparator: \.isNewline).compactMap { line in
    guard case .tpv(let tpv)? = GPSDJSONDecoder.decode(line) else { return nil }
    return GuidanceFix(tpv)
  }
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
@Suite("Real receiver through the engine", .requiresGPSDLogs)
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
    // 80 m is within the 100 m join; every later fix is past 35 m. The receiver reports each
    // second three times and the engine judges a time once, so the misses start with the next
    // second and the duration gate binds 10 s after that.
    #expect(timed.first?.event == .joined)
    #expect(timed.first?.timestamp == start)
    let departures = timed.filter { $0.event.name == "off_route" }
    #expect(departures.map(\.timestamp) == [start.addingTimeInterval(11)])
    #expect(!timed.contains { $0.event == .backOnRoute })
    #expect(engine.phase == .offRoute)
  }
}
