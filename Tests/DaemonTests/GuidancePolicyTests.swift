import ControlProtocol
import DashPilotCore
import Foundation
import Guidance
import PlatformSupport
import Testing

@testable import Daemon

/// A drive on a real 2 km route from a file, east along 37.5° N, with a real engine: joined
/// at 1000 m, then 100 m north of the road heading north at 10 m/s from t=1; the engine
/// confirms the departure at t=5. Every input carries its own clock reading, so the wall
/// and monotonic clocks are moved apart at will.
struct PolicyDrive {
  static let start = GeoCoordinate(latitude: 37.5, longitude: 127.0)
  /// The wall clock at t=0: 2024-05-14T09:00:00Z.
  static let wallStart = 1_715_677_200.0
  /// The monotonic clock at t=0.
  static let monotonicStart = 1_000.0

  var policy = GuidancePolicy(language: .english)

  static func point(along: Double, north: Double = 0) -> GeoCoordinate {
    let onRoad = GeographicDistance.destination(from: start, bearing: 90, distance: along)
    return north == 0 ? onRoad : GeographicDistance.destination(from: onRoad, bearing: 0, distance: north)
  }

  static var route: [WireCoordinate] {
    (0...20).map { WireCoordinate(point(along: Double($0) * 100)) }
  }

  /// t seconds into the drive on both clocks, the wall clock then moved by `wallStep`.
  static func reading(_ t: Double, wallStep: Double = 0) -> ClockReading {
    ClockReading(
      wall: Date(timeIntervalSince1970: wallStart + t + wallStep), monotonic: monotonicStart + t,
      isWallClockSynchronised: false)
  }

  static func onFix(_ t: Double) -> GuidanceFix {
    GuidanceFix(
      timestamp: Date(timeIntervalSince1970: wallStart + t), coordinate: point(along: 1000), accuracy: 5, speed: 10,
      course: 90)
  }

  static func offFix(_ t: Double) -> GuidanceFix {
    GuidanceFix(
      timestamp: Date(timeIntervalSince1970: wallStart + t), coordinate: point(along: 1000, north: 100 + 10 * t),
      accuracy: 5, speed: 10, course: 0)
  }

  init() {
    policy.providerName = "valhalla"
  }

  /// Loads the route at t=0, joins it and leaves it; returns the actions of t=5.
  mutating func depart() -> [GuidanceAction] {
    _ = policy.load(RouteLoadArguments(name: "east", mode: .driving, coordinates: Self.route), now: Self.reading(0))
    _ = policy.observe(fix: Self.onFix(0), now: Self.reading(0))
    for t in 1...4 { _ = policy.observe(fix: Self.offFix(Double(t)), now: Self.reading(Double(t))) }
    return policy.observe(fix: Self.offFix(5), now: Self.reading(5))
  }
}

func reroutes(_ actions: [GuidanceAction]) -> [RerouteRequestID] {
  actions.compactMap { if case .reroute(let id, _, _) = $0 { id } else { nil } }
}

func events(_ actions: [GuidanceAction]) -> [DaemonEvent] {
  actions.compactMap { if case .announce(let report) = $0 { report.event } else { nil } }
}

@Suite("Guidance policy")
struct GuidancePolicyTests {
  @Test("a wall clock stepped back mid-reroute: the retry still comes 15 s after the failure")
  func wallClockStepBackMidReroute() throws {
    var drive = PolicyDrive()
    let departed = drive.depart()
    #expect(reroutes(departed) == [RerouteRequestID(1)])
    let generation = drive.policy.generation
    let failed = drive.policy.rerouteAnswered(
      .failure(RouteFailure(.unavailable, "valhalla: cannot connect")), for: RerouteRequestID(1),
      generation: generation, now: PolicyDrive.reading(5))
    let failure = DaemonEvent.guidanceRerouteFailed(
      .init(
        failure: "unavailable", detail: "valhalla: cannot connect", permanent: false,
        retryAt: PolicyDrive.reading(20).wall, at: PolicyDrive.reading(5).wall))
    #expect(
      events(failed) == [
        .guidanceAnnouncement(.init(kind: "route_not_found", language: "en", at: PolicyDrive.reading(5).wall)), failure,
      ])
    // The box sets its clock an hour back (NTP, or the receiver's time) while it waits.
    let stepped = -3600.0
    for t in stride(from: 6.0, through: 19.5, by: 0.5) {
      let ticked = drive.policy.tick(now: PolicyDrive.reading(t, wallStep: stepped))
      #expect(ticked == [], "t=\(t)")
    }
    let retried = drive.policy.tick(now: PolicyDrive.reading(20, wallStep: stepped))
    #expect(reroutes(retried) == [RerouteRequestID(2)])
    // Told on the wall clock as it now reads.
    guard case .guidanceRerouteRequested(let asked)? = events(retried).first else {
      Issue.record("no reroute_requested: \(retried)")
      return
    }
    #expect(asked.at == PolicyDrive.reading(20, wallStep: stepped).wall)
    #expect(asked.request == "reroute-2")
  }

  @Test("a wall clock stepped forward does not hasten the retry")
  func wallClockStepForward() throws {
    var drive = PolicyDrive()
    _ = drive.depart()
    _ = drive.policy.rerouteAnswered(
      .failure(RouteFailure(.noRoute, "test")), for: RerouteRequestID(1), generation: drive.policy.generation,
      now: PolicyDrive.reading(5))
    let early = drive.policy.tick(now: PolicyDrive.reading(19.9, wallStep: 86_400))
    #expect(early == [])
    let due = drive.policy.tick(now: PolicyDrive.reading(20, wallStep: 86_400))
    #expect(reroutes(due) == [RerouteRequestID(2)])
  }

  @Test("the reroute's latency and the driver's wait are measured on the monotonic clock")
  func latencyOnTheMonotonicClock() throws {
    var drive = PolicyDrive()
    _ = drive.depart()
    let latest = PolicyDrive.offFix(5)
    let points = (0...40).map {
      GeographicDistance.destination(from: latest.coordinate, bearing: 0, distance: Double($0) * 50)
    }
    // The answer lands 0.25 s later, while the wall clock jumps back a day.
    let installed = drive.policy.rerouteAnswered(
      .success(PlannedRoute(coordinates: points, provider: "valhalla", mode: .driving)), for: RerouteRequestID(1),
      generation: drive.policy.generation, now: PolicyDrive.reading(5.25, wallStep: -86_400))
    guard case .guidanceRerouted(let rerouted)? = events(installed).first else {
      Issue.record("no rerouted: \(installed)")
      return
    }
    #expect(rerouted.request == "reroute-1")
    #expect(rerouted.latencyMilliseconds == 250)
    #expect(rerouted.sinceOffRouteMilliseconds == 250)
    #expect(rerouted.points == 41)
    #expect(rerouted.at == PolicyDrive.reading(5.25, wallStep: -86_400).wall)
    #expect(drive.policy.section?.reroute == "new route installed: 2000 m")
  }

  @Test("an answer for a route since cleared is dropped, and says so in the journal")
  func answerForAClearedRoute() throws {
    var drive = PolicyDrive()
    _ = drive.depart()
    let generation = drive.policy.generation
    let cleared = drive.policy.clear(now: PolicyDrive.reading(6))
    #expect(
      cleared == [
        .announce(
          EventReport(.guidanceCleared, "route cleared: no route is followed", at: PolicyDrive.reading(6).wall)),
        .reply(.acknowledged("Route cleared: no route is followed now.")),
      ])
    let late = drive.policy.rerouteAnswered(
      .failure(RouteFailure(.unavailable, "test")), for: RerouteRequestID(1), generation: generation,
      now: PolicyDrive.reading(7))
    #expect(late == [.log(.info, "dropped the answer to reroute-1: its route is no longer followed")])
    #expect(drive.policy.section == nil)
  }

  @Test("navigate plans from the latest kept position; a second one waits its turn; loading a route cancels it")
  func navigateLifecycle() throws {
    var policy = GuidancePolicy(language: .english)
    policy.providerName = "valhalla"
    let destination = WireCoordinate(lat: 37.501, lon: 127.01)
    let arguments = NavigateArguments(destination: destination, mode: .driving)
    let withoutPosition = policy.navigate(arguments, now: PolicyDrive.reading(0))
    #expect(
      withoutPosition == [
        .reply(
          .failed(
            ControlError(
              .unavailable,
              "navigate: no position has been accepted yet, so there is no start for a route (is gpsd delivering fixes?)"
            )))
      ])
    let kept = RouteSample(
      timestamp: Date(timeIntervalSince1970: PolicyDrive.wallStart), coordinate: PolicyDrive.start,
      horizontalAccuracy: 5, speed: 2, course: 90, captureSessionID: CaptureSessionID("s1"))
    policy.observe(accepted: kept)
    let request = RouteRequest(
      origin: PolicyDrive.start, course: nil, destination: GeoCoordinate(latitude: 37.501, longitude: 127.01),
      mode: .driving)
    let asked = policy.navigate(arguments, now: PolicyDrive.reading(1))
    #expect(
      asked == [
        .announce(
          EventReport(
            .guidanceNavigateRequested(
              .init(origin: WireCoordinate(PolicyDrive.start), destination: destination, mode: .driving, course: nil)),
            "asking valhalla for a driving route to 37.501000,127.010000", priority: .info,
            at: PolicyDrive.reading(1).wall)),
        .planRoute(request, token: 1),
      ])
    let second = policy.navigate(arguments, now: PolicyDrive.reading(2))
    #expect(
      second == [
        .reply(
          .failed(ControlError(.busy, "navigate: a route is already being planned; try again when it is answered")))
      ])
    let loaded = policy.load(
      RouteLoadArguments(mode: .walking, coordinates: PolicyDrive.route), now: PolicyDrive.reading(3))
    #expect(
      loaded.first
        == .answerNavigation(.failed(ControlError(.conflict, "navigate: cancelled because a route was loaded"))))
    // The cancelled request's answer, when it lands, is not taken.
    let lateAnswer = policy.navigationAnswered(
      .failure(RouteFailure(.unavailable, "late")), token: 1, now: PolicyDrive.reading(4))
    #expect(lateAnswer == [])
    #expect(policy.section?.source == "file")
    #expect(policy.section?.mode == "walking")
  }
}
