import FoundationEssentials

/// The numbers of the guidance rules (seed: off-route guidance; DESIGN.md's table). Every value
/// is a property so that tests and settings can take one gate apart without touching the others.
public struct GuidanceConfig: Sendable, Hashable {
  /// A fix closer than this to the route is on it (raised by poor accuracy).
  public var offRouteDistance: Double = 45
  /// A vague fix gets `accuracy + accuracyMargin` of slack, so its own doubt is not a miss.
  public var accuracyMargin: Double = 20
  /// Fixes worse than this are not evidence about the route at all: neither a miss nor a reset.
  public var maxMatchAccuracy: Double = 120
  /// Before the first match, a fix this close joins: a car often starts in a car park beside
  /// the road the route begins on.
  public var joinDistance: Double = 150
  /// Misses in a row AND seconds since the first of them before declaring off route: a count
  /// alone falls for a burst from one reflection, a duration alone for two isolated fixes.
  public var offRouteConfirmations: Int = 3
  public var offRouteMinDuration: TimeInterval = 4
  /// Going against the route's direction by at least this much at speed is a U-turn the route
  /// did not ask for. Above 180 it can never fire (walking: a pedestrian turns on the pavement).
  public var oppositeCourseDegrees: Double = 120
  /// A receiver's course is noise below this speed (m/s).
  public var courseTrustSpeed: Double = 4
  /// The search window around the last progress, in metres along the route.
  public var lookBehind: Double = 80
  public var minLookAhead: Double = 500
  /// The look-ahead also covers this many seconds at the smoothed speed, on top of the time
  /// since the last match, so a car that comes out of a tunnel 40 s later at 30 m/s is still
  /// found ahead of where it was last matched (the seed's trimmed "highway speed" idea).
  public var lookAheadTime: TimeInterval = 20
  /// The look-ahead never exceeds this (before the off-route doubling), which bounds the cost
  /// of a fix after a long time off route: about 500 segments of a router's 20 m spacing.
  public var maxLookAhead: Double = 10_000
  /// Segments whose lateral distances are within this many metres of the nearest cannot be
  /// told apart by a fix: the one the car is more likely on wins (see `GuidanceRoute`), so a
  /// loop is joined at its start and a road travelled out and back is not flipped to the other
  /// leg. Kept small so that a real difference between two roads still decides.
  public var matchTieTolerance: Double = 10
  /// Arrival: this close to the end of the route.
  public var arrivalDistance: Double = 35
  /// A transient provider failure is retried this often while still off route.
  public var rerouteRetryInterval: TimeInterval = 15
  /// A `progress` event is emitted every this many metres along the route (and on every
  /// phase change): often enough for a status line, rare enough for a log.
  public var progressInterval: Double = 100
  /// Time constant of the smoothed speed (seconds): long enough to ride over one bad
  /// Doppler sample, short enough to follow a car braking for a junction.
  public var speedSmoothingTime: TimeInterval = 3

  public init() {}

  /// Pathfinder's driving numbers.
  public static let driving = GuidanceConfig()

  /// Pathfinder's walking numbers: the same three gates, closer, slower to confirm, joined
  /// from nearer, and never off route on course alone.
  public static let walking: GuidanceConfig = {
    var config = GuidanceConfig()
    config.offRouteDistance = 35
    config.joinDistance = 100
    config.offRouteMinDuration = 10
    config.oppositeCourseDegrees = 181
    return config
  }()

  public static func preset(for mode: TravelMode) -> GuidanceConfig {
    switch mode {
    case .driving: .driving
    case .walking: .walking
    }
  }
}
