extension DaemonEvent {
  /// A route now followed: loaded from a file (`source` "file") or planned by `navigate`
  /// (`source` the provider, with the call's latency and the way the route sets off).
  public struct RouteFollowed: Sendable, Hashable, Codable {
    public var mode: WireTravelMode
    public var source: String
    public var points: Int
    public var lengthMetres: Double
    public var destination: WireCoordinate
    public var latencyMilliseconds: Double?
    public var firstBearing: Double?

    public init(
      mode: WireTravelMode, source: String, points: Int, lengthMetres: Double, destination: WireCoordinate,
      latencyMilliseconds: Double? = nil, firstBearing: Double? = nil
    ) {
      self.mode = mode
      self.source = source
      self.points = points
      self.lengthMetres = lengthMetres
      self.destination = destination
      self.latencyMilliseconds = latencyMilliseconds
      self.firstBearing = firstBearing
    }

    private enum CodingKeys: String, CodingKey {
      case mode, source, points, destination
      case lengthMetres = "length_m"
      case latencyMilliseconds = "latency_ms"
      case firstBearing = "first_bearing"
    }
  }
}
