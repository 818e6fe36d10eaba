import DashPilotCore

/// Why a list of coordinates cannot be followed as a route.
public enum GuidanceRouteError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The coordinate at `index` (of the list given) cannot be on Earth.
  case invalidCoordinate(index: Int, GeoCoordinate)
  /// After repeated points are dropped, fewer than two remain: there is no line to follow.
  case tooFewPoints(distinct: Int)

  public var description: String {
    switch self {
    case .invalidCoordinate(let index, let coordinate):
      "route point \(index) is not a position on Earth "
        + "(latitude \(coordinate.latitude), longitude \(coordinate.longitude))"
    case .tooFewPoints(let distinct):
      "a route needs at least 2 distinct points, this one has \(distinct)"
    }
  }
}
