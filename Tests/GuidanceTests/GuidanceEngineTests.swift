import DashPilotCore
import Foundation
import Guidance
import Testing

/// Feeds fixes and returns the times at which `offRoute` fired.
private func offRouteTimes(_ engine: inout GuidanceEngine, _ fixes: [GuidanceFix]) -> [Double] {
  var times: [Double] = []
  for fix in fixes {
    for case .offRoute in engine.update(fix) {
      times.append(fix.timestamp.timeIntervalSince(Geometry.epoch))
    }
  }
  return times
}

@Suite("Opposite course")
struct OppositeCourseTests {
  /// Joined heading east along the route for 3 s, then a U-turn at `speed` heading `course`,
  /// still on the road (lateral 0), one fix per second from t=3 to t=10.
  static func uTurn(speed: Double, course: Double = 270, config: GuidanceConfig) throws -> (
    times: [Double], engine: GuidanceEngine
  ) {
    var engine = GuidanceEngine(route: try Geometry.straightRoute(), config: config)
    var fixes = (0...2).map {
      Geometry.fix(along: 2000 + 10 * Double($0), lateral: 0, time: Double($0), speed: 10, course: 90)
    }
    fixes += (3...10).map {
      Geometry.fix(
        along: 2020 - speed * Double($0 - 2), lateral: 0, time: Double($0), speed: speed, course: course)
    }
    let times = offRouteTimes(&engine, fixes)
    return (times, engine)
  }

  @Test("10 m/s against the route fires once, after count and duration (t=3 first miss, t=7)")
  func fastUTurnFires() throws {
    let run = try Self.uTurn(speed: 10, config: .driving)
    #expect(run.times == [7])
    #expect(run.engine.phase == .offRoute)
  }

  @Test("2 m/s against the route is below courseTrustSpeed: never fires")
  func slowUTurnDoesNot() throws {
    let run = try Self.uTurn(speed: 2, config: .driving)
    #expect(run.times == [])
    #expect(run.engine.phase == .following)
  }

  @Test("walking never fires on course alone, even at 10 m/s")
  func walkingIgnoresCourse() throws {
    let run = try Self.uTurn(speed: 10, config: .walking)
    #expect(run.times == [])
    #expect(run.engine.phase == .following)
  }

  @Test("the angle is inclusive at 120 degrees")
  func boundary() throws {
    // The route's segments head 89.9997 degrees, so 210.5 is 120.5 away and 209.5 is 119.5.
    #expect(try Self.uTurn(speed: 10, course: 210.5, config: .driving).times == [7])
    #expect(try Self.uTurn(speed: 10, course: 209.5, config: .driving).times == [])
  }

  @Test("heading 180 degrees on a route that goes north fires")
  func southOnANorthboundRoute() throws {
    let start = GeoCoordinate(latitude: Geometry.latitude, longitude: Geometry.longitude)
    let points = (0...100).map {
      GeoCoordinate(
        latitude: start.latitude + Double($0) * 50 / Geometry.metresPerDegreeNorth, longitude: start.longitude)
    }
    var engine = GuidanceEngine(route: try GuidanceRoute(points), config: .driving)
    func at(_ along: Double, _ t: Double, course: Double) -> GuidanceFix {
      GuidanceFix(
        timestamp: Geometry.time(t),
        coordinate: GeoCoordinate(
          latitude: start.latitude + along / Geometry.metresPerDegreeNorth, longitude: start.longitude),
        accuracy: 5, speed: 10, course: course)
    }
    let fixes =
      [at(1000, 0, course: 0), at(1010, 1, course: 0)]
      + (2...8).map { at(1010 - 10 * Double($0 - 1), Double($0), course: 180) }
    #expect(offRouteTimes(&engine, fixes) == [6])
  }

  @Test("a car that starts against the route at speed does not join")
  func wrongWayAtJoin() throws {
    var engine = GuidanceEngine(route: try Geometry.straightRoute(), config: .driving)
    #expect(engine.update(Geometry.fix(along: 1000, lateral: 0, time: 0, speed: 10, course: 270)) == [])
    #expect(engine.phase == .waitingForFix)
    #expect(engine.offRouteCount == 1)
  }
}

@Suite("Walking numbers")
struct WalkingTests {
  static func steady(lateral: Double, config: GuidanceConfig) throws -> [Double] {
    var engine = GuidanceEngine(route: try Geometry.straightRoute(), config: config)
    let fixes =
      [Geometry.fix(along: 1000, lateral: 5, time: 0)]
      + (1...20).map { Geometry.fix(along: 1000 + 1.4 * Double($0), lateral: lateral, time: Double($0)) }
    return offRouteTimes(&engine, fixes)
  }

  @Test("35 m: 34 m is on the route, 36 m is off after 10 s (misses from t=1, fires t=11)")
  func threshold() throws {
    #expect(try Self.steady(lateral: 34, config: .walking) == [])
    #expect(try Self.steady(lateral: 36, config: .walking) == [11])
    // The same 36 m is on the route when driving (45 m).
    #expect(try Self.steady(lateral: 36, config: .driving) == [])
    // And driving confirms after 4 s where walking waits 10.
    #expect(try Self.steady(lateral: 50, config: .driving) == [5])
  }

  @Test("joins from 100 m, not from 101 m")
  func join() throws {
    let route = try Geometry.straightRoute()
    var near = GuidanceEngine(route: route, config: .walking)
    #expect(near.update(Geometry.fix(along: 1000, lateral: 99, time: 0)).first == .joined)
    var far = GuidanceEngine(route: route, config: .walking)
    #expect(far.update(Geometry.fix(along: 1000, lateral: 101, time: 0)) == [])
    #expect(far.hasJoined == false)
    #expect(far.phase == .waitingForFix)
  }
}

@Suite("Engine phases, progress and arrival")
struct EnginePhaseTests {
  @Test("joining reports progress, then every 100 m boundary crossed")
  func progressEvents() throws {
    var engine = GuidanceEngine(route: try Geometry.straightRoute(length: 2000), config: .driving)
    var reported: [GuidanceEvent] = []
    for step in 0...40 {
      reported += engine.update(Geometry.fix(along: 41 + 15 * Double(step), lateral: 3, time: Double(step)))
    }
    let alongs = reported.compactMap { event -> Double? in
      if case .progress(let along, _) = event { return along }
      return nil
    }
    #expect(reported.first == .joined)
    // 41 (join), then the first fix past each multiple of 100 m, up to 641.
    let expected = [41.0, 101, 206, 311, 401, 506, 611]
    #expect(alongs.count == expected.count)
    for (got, want) in zip(alongs, expected) { #expect(abs(got - want) < 0.01) }
    if case .progress(let along, let remaining)? = reported.last {
      #expect(abs(along + remaining - 2000) < 0.01)
    } else {
      Issue.record("last event is not progress: \(String(describing: reported.last))")
    }
  }

  @Test("arrives within 35 m of the end, then says nothing more")
  func arrival() throws {
    var engine = GuidanceEngine(route: try Geometry.straightRoute(length: 2000), config: .driving)
    var arrivedAt: [Double] = []
    for t in 0...196 {
      let events = engine.update(Geometry.fix(along: 10 * Double(t), lateral: 0, time: Double(t)))
      if events.contains(.arrived) { arrivedAt.append(Double(t)) }
    }
    #expect(arrivedAt == [])  // 1960 m: 40 m to go
    #expect(engine.update(Geometry.fix(along: 1970, lateral: 0, time: 197)) == [.arrived])
    #expect(engine.phase == .arrived)
    // Nothing after arrival: not a far-off fix, not a wrong-way one, not an on-route one.
    #expect(engine.update(Geometry.fix(along: 1980, lateral: 500, time: 198)) == [])
    #expect(engine.update(Geometry.fix(along: 1990, lateral: 0, time: 199, speed: 10, course: 270)) == [])
    for t in 200...210 {
      #expect(engine.update(Geometry.fix(along: 2000, lateral: 300, time: Double(t))) == [])
    }
    #expect(engine.phase == .arrived)
    #expect(engine.offRouteCount == 0)
  }

  @Test("a loop that ends where it starts is joined at its start and arrives only at its end")
  func loop() throws {
    // A 500 m square, anticlockwise from the start: east, north, west, south.
    let side = 500.0
    var corners: [GeoCoordinate] = []
    for step in stride(from: 0.0, through: side, by: 50) { corners.append(Geometry.point(along: step)) }
    for step in stride(from: 50.0, through: side, by: 50) { corners.append(Geometry.point(along: side, lateral: step)) }
    for step in stride(from: side - 50, through: 0, by: -50) {
      corners.append(Geometry.point(along: step, lateral: side))
    }
    for step in stride(from: side - 50, through: 0, by: -50) { corners.append(Geometry.point(along: 0, lateral: step)) }
    let route = try GuidanceRoute(corners)
    #expect(abs(route.length - 2000) < 0.1)
    var engine = GuidanceEngine(route: route, config: .driving)
    // 3 m from the first side and 2 m from the last: both within the tie tolerance, so the
    // start wins (nearest alone would pick the end and arrive at once).
    let first = engine.update(Geometry.fix(along: 2, lateral: 3, time: 0))
    #expect(first.first == .joined)
    #expect(!first.contains(.arrived))
    #expect(try #require(engine.along) < 5)
    // Drive round at 10 m/s, one fix a second, 1 m inside the square.
    var t = 1.0
    var arrivedAt: Double?
    func drive(_ fix: GuidanceFix) {
      if engine.update(fix).contains(.arrived), arrivedAt == nil { arrivedAt = t }
      t += 1
    }
    for x in stride(from: 10.0, through: side, by: 10) { drive(Geometry.fix(along: x, lateral: 1, time: t)) }
    for y in stride(from: 10.0, through: side, by: 10) { drive(Geometry.fix(along: side - 1, lateral: y, time: t)) }
    for x in stride(from: side - 10, through: 0, by: -10) { drive(Geometry.fix(along: x, lateral: side - 1, time: t)) }
    #expect(arrivedAt == nil)
    #expect(engine.phase == .following)
    for y in stride(from: side - 10, through: 0, by: -10) { drive(Geometry.fix(along: 1, lateral: y, time: t)) }
    // The south-going side starts at t=151 (y=490); y=30 is the first fix within 35 m of the end
    // (distance sqrt(1 + 900) = 30.02 m) with 30 m to go along the route: t=197.
    #expect(arrivedAt == 197)
    #expect(engine.phase == .arrived)
  }

  @Test("an unusable fix is neither a miss nor a reset, but its speed is still smoothed")
  func unusableFix() throws {
    var engine = GuidanceEngine(route: try Geometry.straightRoute(), config: .driving)
    _ = engine.update(Geometry.fix(along: 1000, lateral: 0, time: 0, speed: 10))
    _ = engine.update(Geometry.fix(along: 1010, lateral: 90, time: 1, speed: 10))
    #expect(engine.offRouteCount == 1)
    let invalid = GuidanceFix(
      timestamp: Geometry.time(2), coordinate: GeoCoordinate(latitude: 91, longitude: 0), accuracy: 5, speed: 20)
    #expect(engine.update(invalid) == [])
    let notANumber = GuidanceFix(
      timestamp: Geometry.time(3), coordinate: Geometry.point(along: 1030), accuracy: .nan, speed: 20)
    #expect(engine.update(notANumber) == [])
    #expect(engine.offRouteCount == 1)
    #expect(engine.offRouteSince == Geometry.time(1))
    // 10 m/s, then 20 m/s one and two seconds later: weights 1-e^(-1/3) each.
    let w = 1 - exp(-1.0 / 3)
    let after2 = 10 + w * 10
    let after3 = after2 + w * (20 - after2)
    #expect(abs(try #require(engine.smoothedSpeed) - after3) < 1e-9)
    #expect(engine.lastFix?.timestamp == Geometry.time(3))
  }

  @Test("a car that never comes near the route is off route after the gates (lateral infinite)")
  func neverJoined() throws {
    var engine = GuidanceEngine(route: try Geometry.straightRoute(), config: .driving)
    var events: [GuidanceEvent] = []
    for t in 0...4 { events += engine.update(Geometry.fix(along: 1000, lateral: 400, time: Double(t))) }
    #expect(events == [.offRoute(lateral: .infinity)])
    #expect(engine.hasJoined == false)
    // Coming within 45 m now joins and comes back at once.
    #expect(
      engine.update(Geometry.fix(along: 1000, lateral: 40, time: 5)).prefix(2) == [.joined, .backOnRoute])
  }

  @Test("exactly one offRoute per departure, and a second departure after coming back")
  func oncePerDeparture() throws {
    var engine = GuidanceEngine(route: try Geometry.straightRoute(), config: .driving)
    var fixes = [Geometry.fix(along: 1000, lateral: 0, time: 0)]
    fixes += (1...10).map { Geometry.fix(along: 1000, lateral: 100, time: Double($0)) }
    fixes += [Geometry.fix(along: 1000, lateral: 0, time: 11)]
    fixes += (12...20).map { Geometry.fix(along: 1000, lateral: 100, time: Double($0)) }
    #expect(offRouteTimes(&engine, fixes) == [5, 16])
  }

  @Test("fresh engine fed a fix at once")
  func startingFeedsTheFix() throws {
    let fix = Geometry.fix(along: 300, lateral: 20, time: 0)
    let started = GuidanceEngine.starting(on: try Geometry.straightRoute(), config: .driving, with: fix)
    #expect(started.events.first == .joined)
    #expect(started.engine.phase == .following)
    #expect(started.engine.lastFix == fix)
    let idle = GuidanceEngine.starting(on: try Geometry.straightRoute(), config: .driving, with: nil)
    #expect(idle.events == [])
    #expect(idle.engine.phase == .waitingForFix)
  }
}

@Suite("Routes that double back")
struct DoublingBackTests {
  @Test("out and back on the same road: followed the way the car goes, never off route, arrives at the end")
  func outAndBack() throws {
    let out = Geometry.eastRoute(length: 1000)
    let route = try GuidanceRoute(out + out.reversed())
    #expect(abs(route.length - 2000) < 0.01)
    var engine = GuidanceEngine(route: route, config: .driving)
    var all: [GuidanceEvent] = []
    var t = 0.0
    for x in stride(from: 0.0, through: 1000, by: 10) {
      all += engine.update(Geometry.fix(along: x, lateral: 2, time: t, speed: 10, course: 90))
      t += 1
      if x == 500 { #expect(abs(try #require(engine.along) - 500) < 0.01) }
    }
    for x in stride(from: 990.0, through: 0, by: -10) {
      all += engine.update(Geometry.fix(along: x, lateral: 2, time: t, speed: 10, course: 270))
      t += 1
      if x == 500 { #expect(abs(try #require(engine.along) - 1500) < 0.01) }
    }
    #expect(all.first == .joined)
    #expect(all.filter { if case .offRoute = $0 { true } else { false } }.isEmpty)
    #expect(all.last == .arrived)
    #expect(engine.phase == .arrived)
    // On joining, then past every 100 m up to 1900 (arrival comes at 1970 m).
    #expect(all.filter(\.isProgress).count == 20)
  }
}
