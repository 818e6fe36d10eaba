import DashPilotCore
import Foundation
import Guidance
import Testing

@testable import Daemon

/// The check a new route passes before it is followed: it starts near the car and, at speed,
/// does not set off against the car's course.
@Suite("A new route is checked before use")
struct GuidanceRouteCheckTests {
  static let car = GeoCoordinate(latitude: 37.5, longitude: 127.0)

  /// A route from `start` metres east of the car (negative: west), going `bearing` for 300 m.
  static func route(startingEast offset: Double, bearing: Double) throws -> GuidanceRoute {
    let start = GeographicDistance.destination(from: car, bearing: offset >= 0 ? 90 : 270, distance: abs(offset))
    let end = GeographicDistance.destination(from: start, bearing: bearing, distance: 300)
    return try GuidanceRoute([start, end])
  }

  static func fix(accuracy: Double = 5, speed: Double? = 10, course: Double? = 90) -> GuidanceFix {
    GuidanceFix(
      timestamp: Date(timeIntervalSince1970: 1_700_000_000), coordinate: car, accuracy: accuracy, speed: speed,
      course: course)
  }

  @Test("a route that sets off the car's way from under it is taken")
  func goodRoute() throws {
    let check = NewRouteCheck(config: .driving)
    #expect(check.problem(with: try Self.route(startingEast: 3, bearing: 90), from: Self.fix()) == nil)
  }

  @Test("a route starting farther than the join distance is refused, naming both distances")
  func startTooFar() throws {
    let check = NewRouteCheck(config: .driving)
    let problem = check.problem(with: try Self.route(startingEast: 200, bearing: 90), from: Self.fix())
    #expect(problem == "the new route starts 200 m from the car (at most 150 m)")
  }

  @Test(
    "a vague fix widens the allowance to accuracy + margin",
    arguments: [(105.0, nil), (115.0, "the new route starts 115 m from the car (at most 110 m)")] as [(Double, String?)]
  )
  func vagueFix(offset: Double, expected: String?) throws {
    // Walking joins from 100 m; a fix claiming 90 m of error gets 110 m.
    let check = NewRouteCheck(config: .walking)
    #expect(
      check.problem(with: try Self.route(startingEast: offset, bearing: 90), from: Self.fix(accuracy: 90)) == expected)
  }

  @Test("at speed, a route setting off against the course is refused")
  func oppositeCourse() throws {
    let check = NewRouteCheck(config: .driving)
    let problem = check.problem(with: try Self.route(startingEast: 0.5, bearing: 270), from: Self.fix())
    #expect(problem == "the new route sets off at 270°, 180° from the car's course 90°")
    // 119° off is still allowed: only 120° and more is "against".
    #expect(check.problem(with: try Self.route(startingEast: 0.5, bearing: 209), from: Self.fix()) == nil)
  }

  @Test("below the course-trust speed, when walking, or without a usable fix, the course decides nothing")
  func courseNotTrusted() throws {
    let backwards = try Self.route(startingEast: 0.5, bearing: 270)
    #expect(NewRouteCheck(config: .driving).problem(with: backwards, from: Self.fix(speed: 3.9)) == nil)
    #expect(NewRouteCheck(config: .driving).problem(with: backwards, from: Self.fix(course: nil)) == nil)
    #expect(NewRouteCheck(config: .walking).problem(with: backwards, from: Self.fix(speed: 10)) == nil)
    #expect(NewRouteCheck(config: .driving).problem(with: backwards, from: nil) == nil)
    // A fix worse than maxMatchAccuracy is no evidence about where the car is.
    #expect(
      NewRouteCheck(config: .driving).problem(
        with: try Self.route(startingEast: 500, bearing: 90), from: Self.fix(accuracy: 121)) == nil)
  }

  @Test("the first stretch's direction is taken over its first 50 m, across a kink")
  func firstStretchBearing() throws {
    // 10 m east, then north: the point 50 m along is 10 m east and 40 m north of the start.
    let start = Self.car
    let corner = GeographicDistance.destination(from: start, bearing: 90, distance: 10)
    let end = GeographicDistance.destination(from: corner, bearing: 0, distance: 100)
    let route = try GuidanceRoute([start, corner, end])
    let bearing = NewRouteCheck.initialBearing(of: route, over: 50)
    #expect(abs(bearing - atan2(10, 40) * 180 / .pi) < 0.01)
    // A route shorter than the stretch is taken whole.
    let short = try GuidanceRoute([start, corner])
    #expect(abs(NewRouteCheck.initialBearing(of: short, over: 50) - 90) < 0.01)
  }
}
