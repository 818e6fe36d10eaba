import DashPilotCore
import Foundation
import TestSupport
import Testing

/// The one pass walks a route as it comes only while it is in measurement order, and then
/// gives exactly the calculator's figure; out of order it gives none, so the route is
/// measured sorted.
@Suite struct RouteMileagePassTests {
  let calculator = RouteMileageCalculator()

  func pass(_ samples: [RouteSample]) -> RouteMileagePass {
    var pass = RouteMileagePass(calculator: calculator)
    for sample in samples { pass.add(sample) }
    return pass
  }

  /// Three 100 m steps with, after the second position, a twin at its time 111 m north
  /// (sorting after it, so in order) and a position that cannot be on Earth.
  func routeInOrder() -> [RouteSample] {
    var route = RouteBuilder()
    route.drive(100)
    var twin = route.samples[1]
    twin.coordinate.latitude += 0.001
    var nowhere = route.samples[1]
    nowhere.coordinate.latitude = 91
    nowhere.timestamp -= 30
    var later = RouteBuilder(start: route.position, time: route.time + 1)
    later.drive(100)
    later.drive(100)
    return route.samples + [twin, nowhere] + later.samples.dropFirst()
  }

  @Test func aRouteInOrderGivesTheSortedFigureExactly() throws {
    let rows = routeInOrder()
    let walked = try #require(pass(rows).distance())
    // The reversed rows can only be measured sorted: the same figure to the bit.
    #expect(walked == calculator.distance(of: rows.reversed()))
    #expect(walked == calculator.distance(of: rows))
    #expect(walked.usablePositions == 4)  // the twin collapses into its tie, the impossible one is dropped
    #expect(abs(walked.metres - 300) < 1e-6)
    let window = DateInterval(start: rows[0].timestamp - 600, end: rows[rows.count - 1].timestamp)
    #expect(pass(rows).distance(covering: window) == calculator.distance(of: rows.reversed(), covering: window))
    #expect(pass(rows).distance(covering: window)?.gaps == 1)
  }

  @Test func aPositionBeforeTheLastEndsThePassWithoutAFigure() {
    var rows = routeInOrder()
    rows.swapAt(0, 1)  // a clock stepped back one second
    let result = pass(rows)
    #expect(!result.isInMeasurementOrder)
    #expect(result.distance() == nil)
    #expect(calculator.distance(of: rows) == calculator.distance(of: routeInOrder()))
  }

  @Test func aTieSortingBeforeTheLastTieFedEndsThePass() {
    var route = RouteBuilder()
    route.drive(100)
    var north = route.samples[1]
    north.coordinate.latitude += 0.002
    var between = route.samples[1]
    between.coordinate.latitude += 0.001
    // The walk's last position sorts first; `between` sorts after it but before `north`.
    let rows = route.samples + [north, between]
    #expect(pass(rows).distance() == nil)
    #expect(pass(route.samples + [between, north]).distance() == calculator.distance(of: rows))
  }
}
