/// Where a fix falls on the route.
public struct RouteMatch: Sendable, Hashable {
  /// Metres from the fix to the nearest point of the matched segment.
  public var lateral: Double
  /// Metres along the route to that point.
  public var along: Double
  /// Metres from that point to the end of the route.
  public var remaining: Double
  /// Direction of the matched segment, degrees clockwise from true north.
  public var bearing: Double
  /// Index of the matched segment (from point `segment` to point `segment + 1`).
  public var segment: Int

  public init(lateral: Double, along: Double, remaining: Double, bearing: Double, segment: Int) {
    self.lateral = lateral
    self.along = along
    self.remaining = remaining
    self.bearing = bearing
    self.segment = segment
  }
}
