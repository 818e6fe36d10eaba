import DashPilotCore
import FoundationEssentials

/// The session's side of "What Happens After" (seed: off-route guidance), as a pure state
/// machine: it is told the engine's events, the provider's answers and the time, and answers
/// with actions. It does no I/O and reads no clock.
///
/// - `offRoute` starts a departure: the departure line, then one request from the latest
///   usable fix (with its course when its own speed makes the course trustworthy), to the
///   same destination, in the drive's mode.
/// - At most one request is in flight. `backOnRoute`, `joined` or `arrived` ends the
///   departure: a pending retry is dropped, and the in-flight request's answer, when it comes,
///   is discarded (request ids tell it apart); a new departure waits for that answer before
///   asking again.
/// - An answer with a route from this provider and mode is installed. An answer from another
///   provider or mode is a permanent failure (`mismatchedProvider`); one whose points cannot
///   make a route is a transient `unreadableResponse`.
/// - A permanent failure stops this departure's rerouting; a transient one is asked again
///   `rerouteRetryInterval` after the answer, while still off route. Either way the failure
///   line is said once per departure.
///
/// Deadlines are in the clock of the `now` values the caller passes (the daemon's monotonic
/// clock, so a wall-clock step moves no retry; the fix times in an offline replay);
/// `nextDeadline` is for the caller's timer.
public struct RerouteCoordinator: Sendable {
  public let mode: TravelMode
  /// The provider's name, which an answer must carry.
  public let providerName: String
  public var destination: GeoCoordinate
  public let config: GuidanceConfig

  /// Whether the engine last said off route (and no new route has been installed since).
  public private(set) var isOffRoute = false
  /// A permanent failure ended this departure's rerouting.
  public private(set) var hasGivenUp = false
  /// Arrived: nothing more is asked.
  public private(set) var isFinished = false
  /// The call the caller is running, whose answer is awaited (current or to be discarded).
  public private(set) var inFlight: RerouteRequestID?
  /// When a transient failure is asked again.
  public private(set) var retryAt: Date?
  /// The last fix handed in, usable or not: a new route's engine is fed it at once.
  public private(set) var latestFix: GuidanceFix?
  private var latestUsableFix: GuidanceFix?
  private var inFlightIsCurrent = false
  private var failureAnnounced = false
  private var nextRequest = 1

  public init(
    mode: TravelMode, providerName: String, destination: GeoCoordinate, config: GuidanceConfig
  ) {
    self.mode = mode
    self.providerName = providerName
    self.destination = destination
    self.config = config
  }

  /// When `tick(now:)` next has something to do, if anything.
  public var nextDeadline: Date? {
    guard isOffRoute, !hasGivenUp, !isFinished, inFlight == nil else { return nil }
    return retryAt
  }

  /// Call after every `GuidanceEngine.update(fix)`, with the events it returned (even none:
  /// the coordinator keeps the latest fix, and a due retry starts here too).
  public mutating func handle(_ events: [GuidanceEvent], after fix: GuidanceFix, now: Date)
    -> [RerouteAction]
  {
    latestFix = fix
    if fix.isMatchable(maxAccuracy: config.maxMatchAccuracy) { latestUsableFix = fix }
    var actions: [RerouteAction] = []
    for event in events {
      switch event {
      case .offRoute:
        guard !isFinished else { continue }
        isOffRoute = true
        hasGivenUp = false
        failureAnnounced = false
        retryAt = nil
        actions.append(.announce(Announcement(.leftRoute)))
        actions += startRequestIfDue(now: now)
      case .joined, .backOnRoute:
        actions += endDeparture()
      case .arrived:
        actions += endDeparture()
        isFinished = true
      case .progress:
        break
      }
    }
    actions += startRequestIfDue(now: now)
    return actions
  }

  /// The provider's answer to request `id`. An id that is not in flight (unknown, or answered
  /// already) is ignored.
  public mutating func answer(
    _ result: Result<PlannedRoute, RouteFailure>, for id: RerouteRequestID, now: Date
  ) -> [RerouteAction] {
    guard id == inFlight else { return [] }
    inFlight = nil
    guard inFlightIsCurrent else {
      // Its departure is over; a newer one may be waiting for the line to be free.
      return [.discarded(id)] + startRequestIfDue(now: now)
    }
    inFlightIsCurrent = false
    switch result {
    case .failure(let failure):
      return fail(failure, now: now)
    case .success(let planned):
      guard planned.provider == providerName, planned.mode == mode else {
        return fail(
          RouteFailure(
            .mismatchedProvider,
            "asked \(providerName) for \(mode.rawValue), "
              + "answered by \(planned.provider) for \(planned.mode.rawValue)"),
          now: now)
      }
      let route: GuidanceRoute
      do {
        route = try GuidanceRoute(planned.coordinates)
      } catch {
        return fail(RouteFailure(.unreadableResponse, error.description), now: now)
      }
      // The new engine judges the car afresh; if it leaves that route, it is a new departure.
      isOffRoute = false
      retryAt = nil
      return [.installRoute(route, latestFix: latestFix)]
    }
  }

  /// The caller's timer: starts a due retry.
  public mutating func tick(now: Date) -> [RerouteAction] {
    startRequestIfDue(now: now)
  }

  private mutating func startRequestIfDue(now: Date) -> [RerouteAction] {
    guard isOffRoute, !hasGivenUp, !isFinished, inFlight == nil else { return [] }
    if let retryAt, now < retryAt { return [] }
    guard let origin = latestUsableFix ?? latestFix else { return [] }
    let id = RerouteRequestID(nextRequest)
    nextRequest += 1
    inFlight = id
    inFlightIsCurrent = true
    retryAt = nil
    let request = RouteRequest(
      origin: origin.coordinate,
      course: origin.trustedCourse(minimumSpeed: config.courseTrustSpeed),
      destination: destination, mode: mode)
    return [.requestRoute(id, request)]
  }

  private mutating func endDeparture() -> [RerouteAction] {
    var actions: [RerouteAction] = []
    if let inFlight, inFlightIsCurrent {
      inFlightIsCurrent = false
      actions.append(.cancelled(inFlight))
    }
    isOffRoute = false
    hasGivenUp = false
    retryAt = nil
    return actions
  }

  private mutating func fail(_ failure: RouteFailure, now: Date) -> [RerouteAction] {
    var actions: [RerouteAction] = []
    if !failureAnnounced {
      failureAnnounced = true
      actions.append(.announce(Announcement(.routeNotFound)))
    }
    if failure.isPermanent {
      hasGivenUp = true
      actions.append(.gaveUp(failure))
    } else {
      let at = now.addingTimeInterval(config.rerouteRetryInterval)
      retryAt = at
      actions.append(.retryScheduled(at: at, after: failure))
    }
    return actions
  }
}
