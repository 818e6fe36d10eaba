import DashPilotCore
import Guidance

/// Whether a route a provider answered is fit to follow from where the car is now. A router
/// snaps the origin to the nearest road it likes, which is not always the road the car is
/// on, and a heading is only a hint it may ignore: a route that starts a block away, or sets
/// off against the car's course, would be installed only to be left again at once (or to ask
/// for a U-turn). Such an answer is treated as a transient failure and asked again.
///
/// Pure: the caller passes the route and the latest fix.
public struct NewRouteCheck: Sendable, Hashable {
  public var config: GuidanceConfig
  /// How much of the route's beginning gives its direction (metres along it).
  public var firstStretch: Double = 50

  public init(config: GuidanceConfig) {
    self.config = config
  }

  /// Why `route` must not be followed from `fix`, or nil when it may. Without a usable fix
  /// there is nothing to judge against, and the route is taken.
  public func problem(with route: GuidanceRoute, from fix: GuidanceFix?) -> String? {
    guard let fix, fix.isMatchable(maxAccuracy: config.maxMatchAccuracy) else { return nil }
    let allowed = max(config.joinDistance, fix.accuracy + config.accuracyMargin)
    let gap = GeographicDistance.metres(from: route.start, to: fix.coordinate)
    if gap > allowed {
      return "the new route starts \(Int(gap.rounded())) m from the car (at most \(Int(allowed.rounded())) m)"
    }
    guard let course = fix.trustedCourse(minimumSpeed: config.courseTrustSpeed) else { return nil }
    let bearing = Self.initialBearing(of: route, over: firstStretch)
    let angle = GeographicDistance.angleBetween(bearing, course)
    if angle >= config.oppositeCourseDegrees {
      return
        "the new route sets off at \(Int(bearing.rounded()))°, \(Int(angle.rounded()))° from the car's course \(Int(course.rounded()))°"
    }
    return nil
  }

  /// The bearing from the route's start to the point `distance` metres along it (its end
  /// when shorter): the way its first stretch points, over a kink or two of the shape.
  public static func initialBearing(of route: GuidanceRoute, over distance: Double) -> Double {
    let target = min(distance, route.length)
    let distances = route.cumulativeDistances
    var index = 1
    while index < distances.count - 1, distances[index] < target { index += 1 }
    let from = route.points[index - 1]
    let to = route.points[index]
    let segment = distances[index] - distances[index - 1]
    let fraction = segment > 0 ? (target - distances[index - 1]) / segment : 1
    let point = GeographicDistance.destination(
      from: from, bearing: GeographicDistance.initialBearing(from: from, to: to),
      distance: segment * max(0, min(1, fraction)))
    return GeographicDistance.initialBearing(from: route.start, to: point)
  }
}
