import DashPilotCore
import Foundation
import TestSupport
import Testing

/// The same rows always give the same number, whatever order they are fetched in.
@Suite struct DeterminismTests {
  let calculator = RouteMileageCalculator()

  func sampleRoute() -> [RouteSample] {
    var route = RouteBuilder()
    for step in 0..<40 {
      if step == 20 { route.session = CaptureSessionID("s2") }
      route.drive(Double(30 + step), bearing: Double(step * 9), seconds: 5)
    }
    return route.samples
  }

  @Test func shuffledInputGivesTheIdenticalDistance() {
    let ordered = sampleRoute()
    let expected = calculator.distance(of: ordered)
    var generator = SeededGenerator(seed: 7)
    for _ in 0..<20 {
      #expect(calculator.distance(of: ordered.shuffled(using: &generator)) == expected)
    }
  }

  @Test func duplicatedRowsAreCollapsed() {
    let ordered = sampleRoute()
    let expected = calculator.distance(of: ordered)
    #expect(calculator.distance(of: ordered + ordered) == expected)
    #expect(expected.usablePositions == 41)
  }

  @Test func tiesOnTimeAreBrokenOnCoordinatesWhateverTheOrder() {
    var route = RouteBuilder()
    route.drive(100)
    var twin = route.samples[1]
    twin.coordinate.latitude += 0.001  // same time, 111 m north
    var later = RouteBuilder(start: route.position, time: route.time + 1)
    later.drive(100)
    let rows = route.samples + [twin] + later.samples.dropFirst()
    let forwards = calculator.distance(of: rows)
    let backwards = calculator.distance(of: rows.reversed())
    #expect(forwards == backwards)
    // The lower latitude wins the tie, so the walk is 100 m + 100 m, never via the twin.
    #expect(abs(forwards.metres - 200) < 1e-6)
    #expect(forwards.usablePositions == 3)
  }

  @Test func impossiblePositionsAreRejectedAndNothingElseIsRejudged() {
    var route = RouteBuilder(accuracy: 500)  // worse than the filter allows: not re-judged
    route.drive(100)
    route.drive(3)  // negligible for the filter: still counted here
    route.drive(100)
    var rows = route.samples
    let t = route.time
    for (lat, lon) in [(Double.nan, 0.0), (91.0, 0.0), (0.0, 181.0), (-90.5, 10.0)] {
      rows.append(
        RouteSample(
          timestamp: t + 0.5, coordinate: GeoCoordinate(latitude: lat, longitude: lon),
          horizontalAccuracy: 5, captureSessionID: CaptureSessionID("s1")))
    }
    let distance = calculator.distance(of: rows)
    #expect(abs(distance.metres - 203) < 1e-6)
    #expect(distance.usablePositions == 4)
    #expect(distance.gaps == 0)
  }

  @Test func anEmptyRouteIsNotMeasured() {
    let distance = calculator.distance(of: [RouteSample]())
    #expect(distance == .empty)
    #expect(!distance.isMeasured)
    #expect(!distance.isPartial)
  }
}
