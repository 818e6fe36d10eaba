import Capture
import DashPilotCore
import Foundation
import GPSD
import Guidance
import Testing

/// Guidance inside a replay: what it is fed and how it is reported.
struct ReplayGuidanceTests {
  static let time = Date(timeIntervalSince1970: 1_717_228_800)

  @Test func aTPVWithAPositionAndATimeBecomesAGuidanceFix() throws {
    let tpv = GPSDTPV(
      mode: .threeDimensional, time: Self.time, latitude: 48.85, longitude: 2.35, eph: 12.5, epx: 3, epy: 4,
      speed: 9.5, track: 271)
    let fix = try #require(GuidanceFix(tpv))
    #expect(
      fix
        == GuidanceFix(
          timestamp: Self.time, coordinate: GeoCoordinate(latitude: 48.85, longitude: 2.35), accuracy: 12.5, speed: 9.5,
          course: 271))
  }

  @Test func accuracyIsTheFiltersRadius() throws {
    // No eph: the per-axis errors combined, as FixCandidate.horizontalAccuracy does.
    let axes = GPSDTPV(mode: .twoDimensional, time: Self.time, latitude: 1, longitude: 2, epx: 3, epy: 4)
    #expect(try #require(GuidanceFix(axes)).accuracy == 5)
    // No estimate at all: infinite, which the engine's first gate ignores.
    let none = GPSDTPV(mode: .twoDimensional, time: Self.time, latitude: 1, longitude: 2)
    let fix = try #require(GuidanceFix(none))
    #expect(fix.accuracy == .infinity)
    #expect(!fix.isMatchable(maxAccuracy: GuidanceConfig.driving.maxMatchAccuracy))
  }

  @Test func aTPVWithoutAFixAPositionOrATimeIsNotAGuidanceFix() {
    #expect(GuidanceFix(GPSDTPV(mode: .noFix, time: Self.time, latitude: 1, longitude: 2, eph: 5)) == nil)
    #expect(GuidanceFix(GPSDTPV(mode: .threeDimensional, time: Self.time, latitude: 1, eph: 5)) == nil)
    #expect(GuidanceFix(GPSDTPV(mode: .threeDimensional, time: nil, latitude: 1, longitude: 2, eph: 5)) == nil)
  }

  /// A straight 1 km route north, and a car that drives 300 m along it then turns east.
  static func replay(eastAfter metres: Double, to total: Double) throws -> ReplayResult {
    let start = GeoCoordinate(latitude: 51.5, longitude: -0.12)
    let end = GeographicDistance.destination(from: start, bearing: 0, distance: 1000)
    let route = ReplayRoute(route: try GuidanceRoute([start, end]), mode: .driving)
    var replay = GPSDLogReplay(options: GPSDLogReplay.Options(route: route))
    var position = start
    var travelled = 0.0
    var second = 0
    while travelled < total {
      let bearing = travelled < metres ? 0.0 : 90.0
      position = GeographicDistance.destination(from: position, bearing: bearing, distance: 10)
      travelled += 10
      second += 1
      replay.feed(
        report: .tpv(
          GPSDTPV(
            mode: .threeDimensional, time: Self.time + Double(second), latitude: position.latitude,
            longitude: position.longitude, eph: 8, speed: 10, track: bearing)))
    }
    return replay.finish()
  }

  @Test func leavingTheRouteIsReportedOnceAtTheConfirmingFix() throws {
    // East from 300 m north: 10 m further from the route each second. The first miss is
    // the first fix beyond 45 m (50 m, second 35); the third miss 4 s on confirms (90 m).
    let result = try Self.replay(eastAfter: 300, to: 500)
    let guidance = try #require(result.guidance)
    #expect(guidance.mode == .driving)
    #expect(guidance.phase == .offRoute)
    #expect(guidance.events.map(\.event.name) == ["joined", "off_route"])
    #expect(guidance.events.map(\.timestamp) == [Self.time + 1, Self.time + 39])
    guard case let .offRoute(lateral)? = guidance.events.last?.event else {
      Issue.record("no off_route")
      return
    }
    #expect(abs(lateral - 90) < 0.1)
    // The capture figure is the same drive's, route or not.
    #expect(abs(result.distance.metres - 490) < 1)
  }

}
