import ControlProtocol
import DashPilotCore
import FoundationEssentials
import Guidance
import PlatformSupport

/// The daemon's guidance as a pure state machine: which route is followed (loaded from a
/// file with `route.load`, planned with `navigate`, or none), the drive along it
/// (`GuidanceSession`: the engine plus `RerouteCoordinator`, as replay runs it), and what
/// each command, fix, provider answer and tick means, answered as `GuidanceAction`s for
/// `GuidanceComponent` to carry out. Time is passed in; it reads no clock and does no I/O.
///
/// Provider answers come back tagged: a `navigate` answer with the token of the request
/// (only the one still waiting is taken), a reroute answer with the `generation` of the
/// route it was asked for, which changes whenever the followed route does (load, clear,
/// a planned route installed), so an answer for a route since cleared or replaced is
/// dropped; the coordinator's request ids discard an answer the car no longer needs.
struct GuidancePolicy {
  /// A fix older than this (monotonic) is not fed to a newly loaded route: gpsd may have
  /// been gone for an hour.
  static let freshFixAge: TimeInterval = 5

  let language: Guidance.AnnouncementLanguage
  /// The provider's name, which its answers must carry ("none" without one).
  var providerName = "none"

  /// The route followed, and the drive along it (set here and in GuidancePolicy+Steps).
  var drive: Drive?
  private(set) var generation = 0
  private var waitingNavigation: WaitingNavigation?
  /// Counts navigate requests, so an answer is matched to the one still waiting.
  private var navigations = 0
  /// The latest fix, and when (monotonic) it was seen.
  private var latestFix: (fix: GuidanceFix, seen: TimeInterval)?
  /// Where `navigate` starts from: the latest sample the filter kept.
  private var latestAccepted: RouteSample?

  struct Drive {
    var session: GuidanceSession
    var mode: TravelMode
    var destination: GeoCoordinate
    /// "file", or the provider that planned it.
    var source: String
    var name: String?
    /// What the destination of a `navigate` is called (a job's name): said on arrival.
    var destinationName: String?
    /// When (monotonic) each reroute request was handed on.
    var requestStarted: [RerouteRequestID: TimeInterval] = [:]
    /// The last reroute's outcome, as a sentence for status.
    var lastReroute: String?
    /// When (monotonic) the engine last said off route: the start of the reroute latency
    /// the driver feels.
    var departedAt: TimeInterval?
  }

  private struct WaitingNavigation {
    var token: Int
    var request: RouteRequest
    var name: String?
    /// When (monotonic) it was handed on.
    var started: TimeInterval
  }

  init(language: Guidance.AnnouncementLanguage) {
    self.language = language
  }

  // MARK: - Commands

  /// `route.load`: follow the route given.
  mutating func load(_ arguments: RouteLoadArguments, now: ClockReading) -> [GuidanceAction] {
    let mode = TravelMode(arguments.mode)
    let route: GuidanceRoute
    do {
      route = try GuidanceRoute(arguments.coordinates.map { GeoCoordinate(latitude: $0.lat, longitude: $0.lon) })
    } catch {
      return [.reply(.failed(ControlError(.badArguments, "route.load: \(error.description)")))]
    }
    var actions = cancelWaitingNavigation(because: "a route was loaded")
    let session = GuidanceSession(route: route, mode: mode, providerName: providerName)
    let followed = DaemonEvent.RouteFollowed(
      mode: arguments.mode, source: "file", points: route.points.count,
      lengthMetres: GuidanceWording.rounded(route.length), destination: WireCoordinate(route.end))
    actions += install(
      Drive(session: session, mode: mode, destination: route.end, source: "file", name: arguments.name),
      announcing: EventReport(
        .guidanceRouteLoaded(followed), GuidanceWording.routeLoaded(name: arguments.name, mode: mode, route: route),
        at: now.wall),
      now: now)
    actions.append(
      .reply(
        .route(
          RouteResult(
            name: arguments.name, mode: arguments.mode, points: route.points.count, lengthMetres: route.length,
            source: "file"))))
    return actions
  }

  /// `route.clear`: follow nothing.
  mutating func clear(now: ClockReading) -> [GuidanceAction] {
    var actions = cancelWaitingNavigation(because: "the route was cleared")
    guard drive != nil else { return actions + [.reply(.acknowledged("No route was being followed."))] }
    drive = nil
    generation += 1
    actions.append(.announce(EventReport(.guidanceCleared, "route cleared: no route is followed", at: now.wall)))
    actions.append(.reply(.acknowledged("Route cleared: no route is followed now.")))
    return actions
  }

  /// `navigate`: ask the provider for a route from the latest kept position.
  mutating func navigate(_ arguments: NavigateArguments, now: ClockReading) -> [GuidanceAction] {
    guard waitingNavigation == nil else {
      return [
        .reply(
          .failed(ControlError(.busy, "navigate: a route is already being planned; try again when it is answered")))
      ]
    }
    guard let origin = latestAccepted else {
      return [
        .reply(
          .failed(
            ControlError(
              .unavailable,
              "navigate: no position has been accepted yet, so there is no start for a route (is gpsd delivering fixes?)"
            )))
      ]
    }
    let mode = TravelMode(arguments.mode)
    let course = GuidanceFix(
      timestamp: origin.timestamp, coordinate: origin.coordinate, accuracy: origin.horizontalAccuracy,
      speed: origin.speed, course: origin.course
    ).trustedCourse(minimumSpeed: GuidanceConfig.preset(for: mode).courseTrustSpeed)
    let request = RouteRequest(
      origin: origin.coordinate, course: course,
      destination: GeoCoordinate(latitude: arguments.destination.lat, longitude: arguments.destination.lon), mode: mode)
    navigations += 1
    waitingNavigation = WaitingNavigation(
      token: navigations, request: request, name: arguments.name, started: now.monotonic)
    return [
      .announce(
        EventReport(
          .guidanceNavigateRequested(DaemonEvent.RouteAsked(request)),
          GuidanceWording.navigateRequested(of: providerName, request), priority: .info, at: now.wall)),
      .planRoute(request, token: navigations),
    ]
  }

  /// The provider's answer to the `navigate` request `token`.
  mutating func navigationAnswered(
    _ result: Result<PlannedRoute, RouteFailure>, token: Int, now: ClockReading
  ) -> [GuidanceAction] {
    guard let waiting = waitingNavigation, waiting.token == token else { return [] }
    waitingNavigation = nil
    let request = waiting.request
    let planned: PlannedRoute
    switch result {
    case .failure(let failure): return navigationFailed(request, failure, now: now)
    case .success(let answer): planned = answer
    }
    guard planned.mode == request.mode, planned.provider == providerName else {
      return navigationFailed(
        request,
        RouteFailure(
          .mismatchedProvider,
          "asked \(providerName) for \(request.mode.rawValue), answered by \(planned.provider) for \(planned.mode.rawValue)"
        ), now: now)
    }
    let route: GuidanceRoute
    do {
      route = try GuidanceRoute(planned.coordinates)
    } catch {
      return navigationFailed(
        request, RouteFailure(.unreadableResponse, "\(planned.provider): \(error.description)"), now: now)
    }
    let session = GuidanceSession(
      route: route, mode: request.mode, providerName: planned.provider, destination: request.destination)
    let followed = DaemonEvent.RouteFollowed(
      mode: WireTravelMode(request.mode), source: planned.provider, points: route.points.count,
      lengthMetres: GuidanceWording.rounded(route.length), destination: WireCoordinate(request.destination),
      latencyMilliseconds: Self.milliseconds(from: waiting.started, to: now),
      firstBearing: GuidanceWording.rounded(NewRouteCheck.initialBearing(of: route, over: 50)))
    var actions = install(
      Drive(
        session: session, mode: request.mode, destination: request.destination, source: planned.provider,
        destinationName: waiting.name),
      announcing: EventReport(
        .guidanceRoutePlanned(followed),
        GuidanceWording.routePlanned(by: planned.provider, to: request.destination, mode: request.mode, route: route),
        at: now.wall),
      now: now)
    actions.append(
      .answerNavigation(
        .route(
          RouteResult(
            name: waiting.name, mode: WireTravelMode(request.mode), points: route.points.count,
            lengthMetres: route.length, source: planned.provider))))
    if let name = waiting.name { actions += spoken(Announcement(.heading, subject: name), now: now) }
    return actions
  }

  private func navigationFailed(_ request: RouteRequest, _ failure: RouteFailure, now: ClockReading)
    -> [GuidanceAction]
  {
    let code: ControlError.Code = failure.kind == .noRoute ? .notFound : .failed
    return [
      .announce(
        EventReport(
          .guidanceNavigateFailed(.init(failure: failure.kind.rawValue, detail: failure.detail)),
          "no route to \(GuidanceWording.place(request.destination)): \(failure.detail)", priority: .warning,
          at: now.wall)),
      .answerNavigation(.failed(ControlError(code, "navigate: \(failure.detail)"))),
    ]
  }

  private mutating func cancelWaitingNavigation(because reason: String) -> [GuidanceAction] {
    guard waitingNavigation != nil else { return [] }
    waitingNavigation = nil
    return [.answerNavigation(.failed(ControlError(.conflict, "navigate: cancelled because \(reason)")))]
  }

  /// Follows `newDrive` from now on, fed the latest fix at once when it is fresh.
  private mutating func install(_ newDrive: Drive, announcing report: EventReport, now: ClockReading)
    -> [GuidanceAction]
  {
    generation += 1
    drive = newDrive
    let actions: [GuidanceAction] = [.announce(report)]
    guard let latest = latestFix, now.monotonic - latest.seen <= Self.freshFixAge else { return actions }
    return actions + observe(fix: latest.fix, now: now)
  }

  // MARK: - Fixes

  /// A fix gpsd reported with a position, whether or not the filter kept it.
  mutating func observe(fix: GuidanceFix, now: ClockReading) -> [GuidanceAction] {
    latestFix = (fix, now.monotonic)
    guard let step = drive?.session.update(fix, now: now.rerouteTime) else { return [] }
    return perform(step, now: now, eventsFirst: true)
  }

  /// A fix the filter kept: where `navigate` starts from.
  mutating func observe(accepted sample: RouteSample) {
    latestAccepted = sample
  }

  // MARK: - Status

  var section: GuidanceSection? {
    guard let drive else { return nil }
    let engine = drive.session.engine
    let coordinator = drive.session.coordinator
    var reroute = drive.lastReroute
    if let id = coordinator.inFlight, coordinator.isOffRoute {
      reroute = "asking \(coordinator.providerName) for a new route (\(id))"
    }
    return GuidanceSection(
      mode: drive.mode.rawValue, phase: engine.phase.rawValue, distanceRemainingMetres: engine.remaining,
      reroute: reroute, distanceAlongMetres: engine.along, destination: WireCoordinate(drive.destination),
      source: drive.source)
  }

  static func milliseconds(from started: TimeInterval, to now: ClockReading) -> Double {
    GuidanceWording.rounded((now.monotonic - started) * 1000)
  }
}
