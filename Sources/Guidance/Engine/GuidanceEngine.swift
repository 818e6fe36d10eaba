import DashPilotCore
import FoundationEssentials

/// Follows one route and says when the car has really left it (seed: off-route guidance).
///
/// A value type fed one fix at a time. It reads no clock and does no I/O: each fix carries its
/// time, and every event `update(_:)` returns happened at that fix's `timestamp`.
///
/// Three gates decide each fix: (1) a fix that is not usable (invalid coordinate, accuracy
/// not a number or worse than `maxMatchAccuracy`) is no evidence either way: neither a miss
/// nor a reset, though its speed still feeds the smoothed speed; (2) a fix farther from the
/// route than max(offRouteDistance, accuracy + accuracyMargin), raised to `joinDistance` before
/// the first match, or heading at least `oppositeCourseDegrees` against the route at a
/// trusted speed, is a miss; (3) only `offRouteConfirmations` misses in a row that also span
/// `offRouteMinDuration` seconds declare the car off route, once per departure.
///
/// As in the seed, misses are counted in every phase, so a car that never comes within
/// `joinDistance` of the route is declared off route too (with an infinite lateral distance
/// when no part of the route was within the search): that is the reroute from where it is.
public struct GuidanceEngine: Sendable {
  public let route: GuidanceRoute
  public let config: GuidanceConfig
  public private(set) var phase: GuidancePhase = .waitingForFix
  /// Whether any fix has matched yet (`joined` has been emitted).
  public private(set) var hasJoined = false
  /// The last fix given to `update(_:)`, usable or not.
  public private(set) var lastFix: GuidanceFix?
  /// The last on-route match: the centre of the search window.
  public private(set) var lastMatch: RouteMatch?
  public private(set) var lastMatchTime: Date?
  /// Speed smoothed over `speedSmoothingTime`; sizes the look-ahead.
  public private(set) var smoothedSpeed: Double?
  /// Misses in a row, and the time of the first of them.
  public private(set) var offRouteCount = 0
  public private(set) var offRouteSince: Date?
  /// The time of the last usable fix judged: a later report of the same instant is not
  /// judged again.
  private var judgedTime: Date?
  private var speedTime: Date?
  private var reportedAlong = 0.0

  public init(route: GuidanceRoute, config: GuidanceConfig) {
    self.route = route
    self.config = config
  }

  /// A fresh engine on a new route, fed `fix` at once: what the session does when a reroute
  /// answers, so the new route is joined (or not) from where the car is now.
  public static func starting(
    on route: GuidanceRoute, config: GuidanceConfig, with fix: GuidanceFix?
  ) -> (engine: GuidanceEngine, events: [GuidanceEvent]) {
    var engine = GuidanceEngine(route: route, config: config)
    guard let fix else { return (engine, []) }
    let events = engine.update(fix)
    return (engine, events)
  }

  /// Metres along the route of the last on-route fix.
  public var along: Double? { lastMatch?.along }
  /// Metres to go from the last on-route fix.
  public var remaining: Double? { lastMatch?.remaining }

  public mutating func update(_ fix: GuidanceFix) -> [GuidanceEvent] {
    guard phase != .arrived else { return [] }
    var events: [GuidanceEvent] = []
    defer { lastFix = fix }
    updateSpeed(fix)
    // Gate 1: a fix that cannot be trusted is silent, neither a miss nor a reset.
    guard fix.isMatchable(maxAccuracy: config.maxMatchAccuracy) else { return events }
    // One instant is one observation. gpsd reports a fix again as each sentence of the
    // receiver's cycle arrives (every cycle from gpsd 3.23 on, Debian 13's 3.25), and a
    // miss counted once per report would let two fixes pass for the three the rule asks.
    if let judgedTime, fix.timestamp <= judgedTime { return events }
    judgedTime = fix.timestamp

    // Gate 2: on the route, within a threshold that widens with the fix's own doubt.
    var threshold = max(config.offRouteDistance, fix.accuracy + config.accuracyMargin)
    if phase == .waitingForFix {
      // A route begins on the nearest road, and the car often begins in a car park beside
      // it: joining is judged more loosely than leaving.
      threshold = max(threshold, config.joinDistance)
    }
    let match = matchFix(fix, radius: max(threshold, config.joinDistance))
    var onRoute = (match?.lateral ?? .infinity) <= threshold
    // The fix's own speed, not the smoothed one, decides whether its course is trusted: the
    // receiver derives both from the same measurement, and a smoothed speed would still
    // vouch for a course for seconds after the car has slowed to a crawl.
    if onRoute, let match, let course = fix.trustedCourse(minimumSpeed: config.courseTrustSpeed),
      GeographicDistance.angleBetween(course, match.bearing) >= config.oppositeCourseDegrees
    {
      onRoute = false  // a U-turn the route did not ask for
    }

    if onRoute, let match {
      offRouteCount = 0
      offRouteSince = nil
      lastMatch = match
      lastMatchTime = fix.timestamp
      switch phase {
      case .waitingForFix:
        phase = .following
        hasJoined = true
        events.append(.joined)
        reportProgress(match, into: &events)
      case .offRoute:
        phase = .following
        if !hasJoined {
          hasJoined = true
          events.append(.joined)
        }
        events.append(.backOnRoute)
        reportProgress(match, into: &events)
      case .following:
        if config.progressInterval > 0,
          (match.along / config.progressInterval).rounded(.down)
            > (reportedAlong / config.progressInterval).rounded(.down)
        {
          reportProgress(match, into: &events)
        }
      case .arrived:
        break
      }
      // The end is reached along the route, not merely passed near: a loop that comes back
      // past its own start has most of its length still to go.
      if match.remaining <= config.arrivalDistance,
        GeographicDistance.metres(from: fix.coordinate, to: route.end) <= config.arrivalDistance
      {
        phase = .arrived
        events.append(.arrived)
      }
    } else {
      // Gate 3: confirmed by count AND duration, announced once.
      offRouteCount += 1
      if offRouteSince == nil { offRouteSince = fix.timestamp }
      let lasted = fix.timestamp.timeIntervalSince(offRouteSince ?? fix.timestamp)
      if phase != .offRoute, offRouteCount >= config.offRouteConfirmations,
        lasted >= config.offRouteMinDuration
      {
        phase = .offRoute
        events.append(.offRoute(lateral: match?.lateral ?? .infinity))
      }
    }
    return events
  }

  /// The search: around the last progress once joined (widened while off route, so the car
  /// is noticed rejoining), the route's coarse index before that.
  private func matchFix(_ fix: GuidanceFix, radius: Double) -> RouteMatch? {
    guard let last = lastMatch else {
      return route.nearestMatch(
        to: fix.coordinate, within: radius, tieTolerance: config.matchTieTolerance,
        course: fix.trustedCourse(minimumSpeed: config.courseTrustSpeed))
    }
    let elapsed = max(0, fix.timestamp.timeIntervalSince(lastMatchTime ?? fix.timestamp))
    var behind = config.lookBehind
    var ahead = min(
      max(config.minLookAhead, (smoothedSpeed ?? 0) * (elapsed + config.lookAheadTime)),
      max(config.minLookAhead, config.maxLookAhead))
    if phase == .offRoute {
      behind *= 3
      ahead *= 2
    }
    let lower = last.along - max(0, behind)
    let upper = last.along + max(0, ahead)
    guard lower.isFinite, upper.isFinite else { return nil }
    return route.match(
      fix.coordinate, window: lower...upper, reference: last.along,
      tieTolerance: config.matchTieTolerance,
      course: fix.trustedCourse(minimumSpeed: config.courseTrustSpeed))
  }

  private mutating func reportProgress(_ match: RouteMatch, into events: inout [GuidanceEvent]) {
    reportedAlong = match.along
    events.append(.progress(along: match.along, remaining: match.remaining))
  }

  /// Runs before the accuracy gate, as in the seed: a vague position can still come with a
  /// good Doppler speed.
  private mutating func updateSpeed(_ fix: GuidanceFix) {
    guard let speed = fix.usableSpeed else { return }
    guard let current = smoothedSpeed, let then = speedTime else {
      smoothedSpeed = speed
      speedTime = fix.timestamp
      return
    }
    let dt = fix.timestamp.timeIntervalSince(then)
    guard dt > 0 else { return }  // a repeated or out-of-order time says nothing new
    let weight =
      config.speedSmoothingTime > 0 ? 1 - exp(-dt / config.speedSmoothingTime) : 1
    smoothedSpeed = current + weight * (speed - current)
    speedTime = fix.timestamp
  }
}
