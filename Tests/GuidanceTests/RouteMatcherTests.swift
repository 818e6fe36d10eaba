import DashPilotCore
import Foundation
import Guidance
import TestSupport
import Testing

/// Tolerances: the fixes are placed with the sphere's own formulas, and the matcher measures in
/// a flat frame centred on the fix. Over the 50 m segments and tens of metres of offset used
/// here, the flat frame and the sphere differ by well under a millimetre, and a segment of a
/// parallel bulges from its chord by 0.06 mm; 1 cm is a hundred times that and a thousand
/// times finer than any gate. The bearing of a 50 m segment along the parallel at 51.5 N is
/// 0.0003 degrees off east (meridian convergence), inside 0.001.
@Suite("Route model and matcher")
struct RouteMatcherTests {
  @Test("lateral, progress and bearing on a straight route")
  func exactMatch() throws {
    let route = try Geometry.straightRoute()
    let fix = Geometry.point(along: 1234.5, lateral: 30)
    let match = try #require(route.match(fix, window: 1100...1800, reference: 1200))
    #expect(abs(match.lateral - 30) < 0.01)
    #expect(abs(match.along - 1234.5) < 0.01)
    #expect(abs(match.remaining - (route.length - 1234.5)) < 0.01)
    #expect(abs(match.bearing - 90) < 0.001)
    #expect(match.segment == 24)
    // South of the route is the same distance.
    let south = try #require(
      route.match(Geometry.point(along: 1234.5, lateral: -30), window: 1100...1800, reference: 1200))
    #expect(abs(south.lateral - 30) < 0.01)
  }

  @Test("lateral, progress and bearing on a diagonal route")
  func diagonal() throws {
    var points = [GeoCoordinate(latitude: Geometry.latitude, longitude: Geometry.longitude)]
    for _ in 0..<60 {
      points.append(GeographicDistance.destination(from: points[points.count - 1], bearing: 45, distance: 50))
    }
    let route = try GuidanceRoute(points)
    let segmentBearing = GeographicDistance.initialBearing(from: points[20], to: points[21])
    let fix = GeographicDistance.destination(from: points[20], bearing: segmentBearing + 90, distance: 25)
    let match = try #require(route.match(fix, window: 900...1500, reference: 1000))
    #expect(abs(match.lateral - 25) < 0.01)
    #expect(abs(match.along - route.cumulativeDistances[20]) < 0.01)
    #expect(abs(route.cumulativeDistances[20] - 1000) < 0.01)
    #expect(abs(match.bearing - segmentBearing) < 1e-9)
    #expect(abs(match.bearing - 45) < 0.05)
  }

  /// Out 3 km east, 100 m north, 3 km back west: the return leg passes 100 m from the first.
  static func hairpin() throws -> GuidanceRoute {
    var points = Geometry.eastRoute(length: 3000)
    points.append(Geometry.point(along: 3000, lateral: 50))
    points += stride(from: 3000.0, through: 0, by: -50).map { Geometry.point(along: $0, lateral: 100) }
    return try GuidanceRoute(points)
  }

  @Test("the window keeps a far part of the route out; the join index does not")
  func windowLimits() throws {
    let route = try Self.hairpin()
    #expect(route.points.count == 123)
    // Vertex 112 is on the return leg, 100 m north of vertex 10 (500 m along the first leg).
    let vertex = 112
    let fix = route.points[vertex]
    let windowed = try #require(route.match(fix, window: 420...1000, reference: 500))
    #expect(abs(windowed.lateral - 100) < 0.01)
    #expect(abs(windowed.along - 500) < 0.01)
    let joined = try #require(route.nearestMatch(to: fix, within: 150))
    #expect(joined.lateral < 0.01)
    #expect(abs(joined.along - route.cumulativeDistances[vertex]) < 0.01)
    #expect(abs(joined.bearing - 270) < 0.001)
  }

  @Test("the engine following the first leg does not match the return leg")
  func engineWindow() throws {
    let route = try Self.hairpin()
    var engine = GuidanceEngine(route: route, config: .driving)
    #expect(
      engine.update(GuidanceFix(timestamp: Geometry.time(0), coordinate: route.points[10], accuracy: 5)).first
        == .joined)
    // On the return leg, right above: 100 m from the first leg, which is all the window sees.
    #expect(engine.update(GuidanceFix(timestamp: Geometry.time(1), coordinate: route.points[112], accuracy: 5)) == [])
    #expect(engine.offRouteCount == 1)
    #expect(abs(try #require(engine.along) - 500) < 0.01)
  }

  @Test("while off route the window widens to 3x behind and 2x ahead")
  func widenedWindow() throws {
    let route = try Geometry.straightRoute()
    // Following at 1000 m: a fix on the route 700 m ahead is outside the 500 m look-ahead.
    var following = GuidanceEngine(route: route, config: .driving)
    _ = following.update(Geometry.fix(along: 1000, lateral: 0, time: 0))
    #expect(following.update(Geometry.fix(along: 1700, lateral: 0, time: 1)) == [])
    #expect(following.offRouteCount == 1)
    // Behind: 200 m back is 120 m from the window's start (80 m behind).
    #expect(following.update(Geometry.fix(along: 800, lateral: 0, time: 2)) == [])
    #expect(following.offRouteCount == 2)

    func offRouteAt1000() throws -> GuidanceEngine {
      var engine = GuidanceEngine(route: route, config: .driving)
      _ = engine.update(Geometry.fix(along: 1000, lateral: 0, time: 0))
      for t in 1...5 { _ = engine.update(Geometry.fix(along: 1000, lateral: 100, time: Double(t))) }
      #expect(engine.phase == .offRoute)
      return engine
    }
    var ahead = try offRouteAt1000()
    #expect(ahead.update(Geometry.fix(along: 1700, lateral: 0, time: 6)).prefix(1) == [.backOnRoute])
    var behind = try offRouteAt1000()
    #expect(behind.update(Geometry.fix(along: 800, lateral: 0, time: 6)).prefix(1) == [.backOnRoute])
    // Beyond the widened window (2 x 500 ahead, 3 x 80 behind) it is still off route: 100 m
    // past its end, 60 m before its start.
    var beyond = try offRouteAt1000()
    #expect(beyond.update(Geometry.fix(along: 2100, lateral: 0, time: 6)) == [])
    #expect(beyond.update(Geometry.fix(along: 700, lateral: 0, time: 7)) == [])
    #expect(beyond.phase == .offRoute)
  }

  @Test("the look-ahead grows with speed and time since the last match (a tunnel)")
  func lookAheadFollowsSpeed() throws {
    let route = try Geometry.straightRoute(length: 10_000)
    var engine = GuidanceEngine(route: route, config: .driving)
    for t in 0...5 {
      _ = engine.update(Geometry.fix(along: 1000 + 30 * Double(t), lateral: 0, time: Double(t), speed: 30, course: 90))
    }
    // 40 s without a fix at 30 m/s: 1200 m on. The window reaches 30 x (40 + 20) = 1800 m ahead.
    let out = engine.update(Geometry.fix(along: 2350, lateral: 0, time: 45, speed: 30, course: 90))
    #expect(engine.offRouteCount == 0)
    #expect(out.contains(.progress(along: try #require(engine.along), remaining: try #require(engine.remaining))))
  }

  @Test("the look-ahead stops at maxLookAhead (10 km)")
  func lookAheadCap() throws {
    let route = try Geometry.straightRoute(length: 30_000, spacing: 100)
    func engineAfterLongGap() -> GuidanceEngine {
      var engine = GuidanceEngine(route: route, config: .driving)
      for t in 0...5 {
        _ = engine.update(
          Geometry.fix(along: 1000 + 30 * Double(t), lateral: 0, time: Double(t), speed: 30, course: 90))
      }
      return engine
    }
    // 1000 s later at 30 m/s the speed alone would allow 30 km; the window stops 10 km on.
    var within = engineAfterLongGap()
    _ = within.update(Geometry.fix(along: 1150 + 9_900, lateral: 0, time: 1005, speed: 30, course: 90))
    #expect(within.offRouteCount == 0)
    var beyond = engineAfterLongGap()
    _ = beyond.update(Geometry.fix(along: 1150 + 10_100, lateral: 0, time: 1005, speed: 30, course: 90))
    #expect(beyond.offRouteCount == 1)
  }

  @Test("the join index finds what a full scan finds, on a winding route")
  func gridAgreesWithScan() throws {
    var generator = SeededGenerator(seed: 42)
    var points = [GeoCoordinate(latitude: Geometry.latitude, longitude: Geometry.longitude)]
    var bearing = 0.0
    for _ in 0..<2000 {
      bearing += Double.random(in: -60...60, using: &generator)
      let step = Double.random(in: 5...400, using: &generator)
      points.append(GeographicDistance.destination(from: points[points.count - 1], bearing: bearing, distance: step))
    }
    let route = try GuidanceRoute(points)
    var agreed = 0
    var within = 0
    for _ in 0..<500 {
      let base = points[Int.random(in: 0..<points.count, using: &generator)]
      let fix = GeographicDistance.destination(
        from: base, bearing: Double.random(in: 0..<360, using: &generator),
        distance: Double.random(in: 0...300, using: &generator))
      let scanned = route.match(fix, window: 0...route.length, reference: 0)
      let indexed = route.nearestMatch(to: fix, within: 150)
      guard let scan = scanned else {
        Issue.record("a full scan found no match for \(fix)")
        continue
      }
      if scan.lateral <= 150 {
        within += 1
        if let indexed, abs(indexed.lateral - scan.lateral) < 1e-9 { agreed += 1 }
      } else {
        #expect(indexed == nil)
      }
    }
    #expect(within > 250)
    #expect(agreed == within)
  }

  @Test("a route across the antimeridian is joined on both sides")
  func antimeridian() throws {
    let points = (0...20).map { step -> GeoCoordinate in
      let longitude = 179.99 + Double(step) * 0.001
      return GeoCoordinate(latitude: 10, longitude: longitude > 180 ? longitude - 360 : longitude)
    }
    let route = try GuidanceRoute(points)
    #expect(route.length > 2100 && route.length < 2200)
    for longitude in [179.9995, -179.9995] {
      let fix = GeoCoordinate(latitude: 10 + 40 / Geometry.metresPerDegreeNorth, longitude: longitude)
      let match = try #require(route.nearestMatch(to: fix, within: 150))
      #expect(abs(match.lateral - 40) < 0.01)
      #expect(abs(match.bearing - 90) < 0.01)
    }
  }

  @Test("near the pole the join index still finds the route")
  func nearThePole() throws {
    var points = [GeoCoordinate(latitude: 89.9, longitude: 10)]
    for _ in 0..<20 {
      points.append(GeographicDistance.destination(from: points[points.count - 1], bearing: 90, distance: 50))
    }
    let route = try GuidanceRoute(points)
    let bearing = GeographicDistance.initialBearing(from: points[10], to: points[11])
    let fix = GeographicDistance.destination(from: points[10], bearing: bearing - 90, distance: 30)
    let scan = try #require(route.match(fix, window: 0...route.length, reference: 0))
    let joined = try #require(route.nearestMatch(to: fix, within: 150))
    #expect(joined == scan)
    // 11 km from the pole a flat frame is coarser than at 51 N, still within 10 cm here.
    #expect(abs(joined.lateral - 30) < 0.1)
    #expect(abs(joined.along - route.cumulativeDistances[10]) < 0.1)
  }

  @Test("a route needs two distinct valid points")
  func refusals() {
    let a = Geometry.point(along: 0)
    let b = Geometry.point(along: 100)
    #expect(throws: GuidanceRouteError.tooFewPoints(distinct: 0)) { try GuidanceRoute([]) }
    #expect(throws: GuidanceRouteError.tooFewPoints(distinct: 1)) { try GuidanceRoute([a]) }
    #expect(throws: GuidanceRouteError.tooFewPoints(distinct: 1)) { try GuidanceRoute([a, a, a]) }
    let bad = GeoCoordinate(latitude: 12, longitude: 200)
    #expect(throws: GuidanceRouteError.invalidCoordinate(index: 2, bad)) { try GuidanceRoute([a, b, bad]) }
    #expect(
      GuidanceRouteError.invalidCoordinate(index: 2, bad).description
        == "route point 2 is not a position on Earth (latitude 12.0, longitude 200.0)")
    #expect(
      GuidanceRouteError.tooFewPoints(distinct: 1).description
        == "a route needs at least 2 distinct points, this one has 1")
  }

  @Test("repeated points are dropped and distances accumulate")
  func cumulative() throws {
    let a = Geometry.point(along: 0)
    let b = Geometry.point(along: 100)
    let c = Geometry.point(along: 250)
    let route = try GuidanceRoute([a, a, b, b, c])
    #expect(route.points == [a, b, c])
    #expect(route.segmentCount == 2)
    #expect(abs(route.cumulativeDistances[1] - 100) < 0.001)
    #expect(abs(route.length - 250) < 0.001)
    #expect(route.start == a)
    #expect(route.end == c)
  }

  @Test("a window beyond either end still matches the nearest end segment")
  func windowClamped() throws {
    let route = try Geometry.straightRoute(length: 1000)
    let beforeStart = try #require(route.match(Geometry.point(along: -20), window: -500...(-100), reference: -300))
    #expect(beforeStart.along == 0)
    #expect(abs(beforeStart.lateral - 20) < 0.01)
    let pastEnd = try #require(route.match(Geometry.point(along: 1030), window: 1200...1900, reference: 1500))
    #expect(abs(pastEnd.along - 1000) < 0.001)
    #expect(pastEnd.remaining == 0)
    #expect(abs(pastEnd.lateral - 30) < 0.01)
  }
}
