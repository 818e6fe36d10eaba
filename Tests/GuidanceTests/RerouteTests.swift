import DashPilotCore
import Foundation
import Guidance
import Testing

/// A drive on a real 5 km route with a real engine: joined at 1000 m, then 100 m north of the
/// road heading north at 10 m/s from t=1; the engine confirms the departure at t=5.
private struct Drive {
  static let provider = "valhalla"
  var session: GuidanceSession
  let route: GuidanceRoute

  init(length: Double = 5000, mode: TravelMode = .driving) throws {
    route = try Geometry.straightRoute(length: length)
    session = GuidanceSession(route: route, mode: mode, providerName: Self.provider)
  }

  static func onFix(_ t: Double, along: Double = 1000) -> GuidanceFix {
    Geometry.fix(along: along, lateral: 0, time: t, speed: 10, course: 90)
  }

  static func offFix(_ t: Double, speed: Double = 10, accuracy: Double = 5) -> GuidanceFix {
    Geometry.fix(along: 1000, lateral: 100 + 10 * t, accuracy: accuracy, time: t, speed: speed, course: 0)
  }

  mutating func on(_ t: Double, along: Double = 1000) -> GuidanceSession.Step {
    session.update(Self.onFix(t, along: along), now: Geometry.time(t))
  }

  mutating func off(_ t: Double, speed: Double = 10, accuracy: Double = 5) -> GuidanceSession.Step {
    session.update(Self.offFix(t, speed: speed, accuracy: accuracy), now: Geometry.time(t))
  }

  /// Joined at t=0, off from t=1; returns the actions of t=5, the confirming fix.
  mutating func depart(speed: Double = 10) -> [RerouteAction] {
    _ = on(0)
    for t in 1...4 { #expect(off(Double(t), speed: speed).actions == []) }
    return off(5, speed: speed).actions
  }

  func request(_ t: Double, speed: Double = 10, id: Int) -> RerouteAction {
    let fix = Self.offFix(t, speed: speed)
    return .requestRoute(
      RerouteRequestID(id),
      RouteRequest(
        origin: fix.coordinate, course: speed >= 4 ? 0 : nil, destination: route.end, mode: .driving))
  }

  mutating func answer(_ failure: RouteFailure.Kind, id: Int, at t: Double) -> [RerouteAction] {
    session.answer(.failure(RouteFailure(failure, "test")), for: RerouteRequestID(id), now: Geometry.time(t)).actions
  }

  mutating func tick(_ t: Double) -> [RerouteAction] { session.tick(now: Geometry.time(t)).actions }
}

private let leftRoute = RerouteAction.announce(Announcement(.leftRoute))
private let routeNotFound = RerouteAction.announce(Announcement(.routeNotFound))

private func announcements(_ actions: [RerouteAction]) -> [Announcement.Kind] {
  actions.compactMap { if case .announce(let a) = $0 { a.kind } else { nil } }
}

@Suite("Reroute coordinator")
struct RerouteTests {
  @Test("off route: the departure line, then one request from the fix with its course, same mode")
  func departure() throws {
    var drive = try Drive()
    #expect(drive.depart() == [leftRoute, drive.request(5, id: 1)])
    #expect(drive.session.coordinator.inFlight == RerouteRequestID(1))
    #expect(drive.session.nextDeadline == nil)
    // Further misses ask nothing more while the request is out.
    for t in 6...30 { #expect(drive.off(Double(t)).actions == []) }
  }

  @Test("the course is passed only when the fix's own speed trusts it")
  func courseOnlyAtSpeed() throws {
    var drive = try Drive()
    #expect(drive.depart(speed: 2) == [leftRoute, drive.request(5, speed: 2, id: 1)])
  }

  @Test("back on route cancels the reroute in flight; its late answer is discarded")
  func backOnRouteCancels() throws {
    var drive = try Drive()
    _ = drive.depart()
    let back = drive.on(6)
    #expect(back.events.map(\.event).prefix(1) == [.backOnRoute])
    #expect(back.actions == [.cancelled(RerouteRequestID(1))])
    let newRoute = PlannedRoute(
      coordinates: [Geometry.point(along: 1000, lateral: 150), Geometry.point(along: 1000, lateral: 2000)],
      provider: Drive.provider, mode: .driving)
    let late = drive.session.answer(.success(newRoute), for: RerouteRequestID(1), now: Geometry.time(8))
    #expect(late.actions == [.discarded(RerouteRequestID(1))])
    #expect(late.events == [])
    #expect(drive.session.engine.route == drive.route)
    #expect(drive.session.phase == .following)
    #expect(drive.session.coordinator.inFlight == nil)
  }

  @Test("back on route drops a pending retry: retries happen only while off route")
  func backOnRouteDropsRetry() throws {
    var drive = try Drive()
    _ = drive.depart()
    #expect(drive.answer(.unavailable, id: 1, at: 5).count == 2)
    #expect(drive.session.nextDeadline == Geometry.time(20))
    #expect(drive.on(10).actions == [])
    #expect(drive.session.nextDeadline == nil)
    #expect(drive.tick(20) == [])
    #expect(drive.tick(100) == [])
    for t in 11...19 { #expect(drive.on(Double(t)).actions == []) }
  }

  @Test("a permanent failure stops this departure's rerouting and is announced once")
  func permanentFailure() throws {
    for kind in RouteFailure.Kind.allCases where kind.isPermanent {
      var drive = try Drive()
      _ = drive.depart()
      #expect(
        drive.answer(kind, id: 1, at: 6) == [routeNotFound, .gaveUp(RouteFailure(kind, "test"))])
      #expect(drive.session.nextDeadline == nil)
      #expect(drive.session.coordinator.hasGivenUp)
      for t in 7...60 { #expect(drive.off(Double(t)).actions == []) }
      #expect(drive.tick(1000) == [])
    }
  }

  @Test("after giving up, the next departure is rerouted afresh")
  func nextDepartureAfterGivingUp() throws {
    var drive = try Drive()
    _ = drive.depart()
    _ = drive.answer(.credentials, id: 1, at: 6)
    #expect(drive.on(7).actions == [])
    #expect(drive.session.coordinator.hasGivenUp == false)
    var actions: [RerouteAction] = []
    for t in 8...12 { actions += drive.off(Double(t)).actions }
    #expect(actions == [leftRoute, drive.request(12, id: 2)])
    #expect(drive.answer(.credentials, id: 2, at: 13) == [routeNotFound, .gaveUp(RouteFailure(.credentials, "test"))])
  }

  @Test("a transient failure is asked again at +15 s, +30 s, ... and announced once")
  func transientRetries() throws {
    for kind in RouteFailure.Kind.allCases where !kind.isPermanent {
      var drive = try Drive()
      _ = drive.depart()
      let failure = RouteFailure(kind, "test")
      #expect(
        drive.answer(kind, id: 1, at: 5) == [routeNotFound, .retryScheduled(at: Geometry.time(20), after: failure)])
      #expect(drive.session.nextDeadline == Geometry.time(20))
      #expect(drive.tick(19.9) == [])
      #expect(drive.tick(20) == [drive.request(5, id: 2)])  // still from the latest fix (t=5)
      #expect(drive.session.nextDeadline == nil)
      #expect(drive.answer(kind, id: 2, at: 20) == [.retryScheduled(at: Geometry.time(35), after: failure)])
      // Fixes keep coming: the one at t=35 starts the retry by itself, from that fix.
      for t in 21...34 { #expect(drive.off(Double(t)).actions == []) }
      #expect(drive.off(35).actions == [drive.request(35, id: 3)])
      #expect(drive.answer(kind, id: 3, at: 35) == [.retryScheduled(at: Geometry.time(50), after: failure)])
    }
  }

  @Test("the request starts from the latest usable fix, not a vague one")
  func originIsLatestUsableFix() throws {
    var drive = try Drive()
    _ = drive.depart()
    _ = drive.answer(.unavailable, id: 1, at: 5)
    #expect(drive.off(18).actions == [])
    #expect(drive.off(19, accuracy: 300).actions == [])
    #expect(drive.tick(20) == [drive.request(18, id: 2)])
  }

  @Test("a new route: a fresh engine fed the latest fix at once")
  func newRouteInstalled() throws {
    var drive = try Drive()
    _ = drive.depart()
    let latest = Drive.offFix(5)
    // From where the car is, on north for 2 km.
    let points = (0...40).map {
      GeographicDistance.destination(from: latest.coordinate, bearing: 0, distance: Double($0) * 50)
    }
    let planned = PlannedRoute(coordinates: points, provider: Drive.provider, mode: .driving)
    let step = drive.session.answer(.success(planned), for: RerouteRequestID(1), now: Geometry.time(6))
    let installed = try GuidanceRoute(points)
    #expect(step.actions == [.installRoute(installed, latestFix: latest)])
    #expect(step.events.map(\.event).prefix(1) == [.joined])
    #expect(step.events.allSatisfy { $0.timestamp == Geometry.time(5) })
    #expect(drive.session.engine.route == installed)
    #expect(drive.session.phase == .following)
    #expect(drive.session.engine.lastFix == latest)
    #expect(drive.session.coordinator.isOffRoute == false)
    // Leaving the new route is a new departure, announced again.
    var actions: [RerouteAction] = []
    for t in 7...12 {
      actions +=
        drive.session.update(
          Geometry.fix(along: 1500, lateral: 0, time: Double(t), speed: 10, course: 90), now: Geometry.time(Double(t))
        ).actions
    }
    #expect(announcements(actions) == [.leftRoute])
    #expect(actions.contains { if case .requestRoute(RerouteRequestID(2), _) = $0 { true } else { false } })
  }

  @Test("an answer from another provider or mode is a permanent failure")
  func mismatchedAnswer() throws {
    let points = [Geometry.point(along: 0, lateral: 500), Geometry.point(along: 500, lateral: 500)]
    for (provider, mode) in [("osrm", TravelMode.driving), (Drive.provider, .walking)] {
      var drive = try Drive()
      _ = drive.depart()
      let answer = drive.session.answer(
        .success(PlannedRoute(coordinates: points, provider: provider, mode: mode)),
        for: RerouteRequestID(1), now: Geometry.time(6))
      let detail = "asked valhalla for driving, answered by \(provider) for \(mode.rawValue)"
      #expect(answer.actions == [routeNotFound, .gaveUp(RouteFailure(.mismatchedProvider, detail))])
      #expect(drive.session.engine.route == drive.route)
    }
  }

  @Test("an answer whose points make no route is a transient unreadable response")
  func unreadableAnswer() throws {
    var drive = try Drive()
    _ = drive.depart()
    let answer = drive.session.answer(
      .success(PlannedRoute(coordinates: [Geometry.point(along: 0)], provider: Drive.provider, mode: .driving)),
      for: RerouteRequestID(1), now: Geometry.time(6))
    let failure = RouteFailure(.unreadableResponse, "a route needs at least 2 distinct points, this one has 1")
    #expect(answer.actions == [routeNotFound, .retryScheduled(at: Geometry.time(21), after: failure)])
  }

  @Test("requests never overlap: a new departure waits for the cancelled call's answer")
  func neverOverlap() throws {
    var drive = try Drive()
    _ = drive.depart()
    #expect(drive.on(6).actions == [.cancelled(RerouteRequestID(1))])
    var actions: [RerouteAction] = []
    for t in 7...11 { actions += drive.off(Double(t)).actions }
    #expect(actions == [leftRoute])  // t=11 confirms the second departure; the line is busy
    #expect(drive.session.coordinator.inFlight == RerouteRequestID(1))
    #expect(
      drive.answer(.connectionDropped, id: 1, at: 12) == [.discarded(RerouteRequestID(1)), drive.request(11, id: 2)])
  }

  @Test("unknown and repeated answers are ignored")
  func strayAnswers() throws {
    var drive = try Drive()
    _ = drive.depart()
    #expect(drive.answer(.unavailable, id: 7, at: 6) == [])
    #expect(drive.answer(.unavailable, id: 1, at: 6).count == 2)
    #expect(drive.answer(.unavailable, id: 1, at: 6) == [])
  }

  @Test("the seed's lines are said exactly once each per departure")
  func linesOnce() throws {
    var drive = try Drive()
    var actions = drive.depart()
    var id = 1
    for retry in 0..<4 {
      let now = 5 + 15 * Double(retry)
      actions += drive.answer(retry == 3 ? .quotaExhausted : .unavailable, id: id, at: now)
      actions += drive.tick(now + 15)
      id += 1
    }
    #expect(announcements(actions) == [.leftRoute, .routeNotFound])
    #expect(actions.filter { if case .requestRoute = $0 { true } else { false } }.count == 4)
    #expect(actions.last == .gaveUp(RouteFailure(.quotaExhausted, "test")))
  }

  @Test("arriving ends rerouting for good")
  func arrivalEnds() throws {
    var drive = try Drive(length: 2000)
    _ = drive.on(0, along: 1950)
    var actions: [RerouteAction] = []
    for t in 1...5 {
      actions +=
        drive.session.update(
          Geometry.fix(along: 1950, lateral: 100, time: Double(t), speed: 10, course: 0), now: Geometry.time(Double(t))
        ).actions
    }
    #expect(announcements(actions) == [.leftRoute])
    let arrival = drive.on(6, along: 1990)
    #expect(arrival.events.map(\.event).last == .arrived)
    #expect(arrival.actions == [.cancelled(RerouteRequestID(1))])
    #expect(drive.session.coordinator.isFinished)
    #expect(drive.answer(.unavailable, id: 1, at: 7) == [.discarded(RerouteRequestID(1))])
    #expect(drive.off(8).actions == [])
    #expect(drive.tick(100) == [])
  }

  @Test("announcement texts in Korean and English")
  func texts() {
    #expect(Announcement(.leftRoute).text(for: .korean) == "길을 벗어났어. 다시 찾아볼게")
    #expect(Announcement(.routeNotFound).text(for: .korean) == "길을 못 찾았어")
    #expect(Announcement(.leftRoute).text(for: .english) == "You've left the route. Finding a new one.")
    #expect(Announcement(.routeNotFound).text(for: .english) == "Couldn't find a route.")
    #expect(AnnouncementLanguage.allCases.map(\.rawValue) == ["ko", "en"])
  }
}
