import DashPilotCore
import Foundation
import TestSupport
import Testing

@testable import Store

@Suite struct RouteSegmentTests {
  @Test func aShiftIsSplitWhereTheMeasurementSeesAGap() throws {
    let file = try TemporaryStoreFile("segments")
    let store = try file.open()
    let shift = try store.startShift(at: at(1_700_000_000))
    var builder = RouteBuilder(time: at(1_700_000_000), session: CaptureSessionID("a"))
    builder.drive(100)
    builder.drive(100)
    builder.session = CaptureSessionID("b")  // capture restarted
    builder.drive(100)
    builder.drive(100)
    builder.drive(100, seconds: 300)  // silence beyond two minutes
    builder.drive(100)
    try store.append(builder.samples, toShift: shift.id)

    let segments = try store.continuousSegments(ofShift: shift.id)
    #expect(segments.map(\.samples.count) == [3, 2, 2])
    #expect(segments.map(\.captureSessionID) == [CaptureSessionID("a"), CaptureSessionID("b"), CaptureSessionID("b")])
    #expect(segments.flatMap(\.samples) == (try store.samples(ofShift: shift.id)))
    let distance = try store.recordedDistance(ofShift: shift.id)
    #expect(distance.gaps == segments.count - 1)
  }

  @Test func positionsTheMeasurementDoesNotUseAreLeftOut() {
    var route = straightRoute(count: 4)
    route.append(route[3])  // a repeated timestamp collapses
    route.insert(
      RouteSample(
        timestamp: at(1_700_000_001.5), coordinate: GeoCoordinate(latitude: .nan, longitude: 0),
        horizontalAccuracy: 5, captureSessionID: CaptureSessionID("s1")), at: 2)
    let segments = RouteSegment.split(route)
    #expect(segments.map(\.samples) == [Array(route[0..<2]) + Array(route[3..<5])])
  }

  @Test(arguments: 20...27)
  func segmentsAgreeWithTheMeasurementOnRandomRoutes(seed: UInt64) {
    var generator = SeededGenerator(seed: seed)
    let route = StoreRandomRoutes.route(count: 300, using: &generator, anonymousSessions: seed % 2 == 0)
    let calculator = RouteMileageCalculator()
    let distance = calculator.distance(of: route)
    let segments = RouteSegment.split(route)
    #expect(segments.count == distance.gaps + 1)
    #expect(segments.filter { $0.samples.count > 1 }.count == distance.segments)
    #expect(segments.map(\.samples.count).reduce(0, +) == distance.usablePositions)
    let summed = segments.map { calculator.distance(of: $0.samples).metres }.reduce(0, +)
    #expect(abs(summed - distance.metres) < 1e-6)
    #expect(segments.allSatisfy { calculator.distance(of: $0.samples).gaps == 0 })
  }
}
