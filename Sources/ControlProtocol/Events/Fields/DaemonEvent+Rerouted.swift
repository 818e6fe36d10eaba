import FoundationEssentials

extension DaemonEvent {
  /// A new route installed. `request`, `latency_ms` (the provider call) and
  /// `since_off_route_ms` (what the driver waited) are absent when not known.
  public struct Rerouted: Sendable, Hashable, Codable {
    public var points: Int
    public var lengthMetres: Double
    public var firstBearing: Double
    public var start: WireCoordinate
    @EventTime public var at: Date
    public var request: String?
    public var latencyMilliseconds: Double?
    public var sinceOffRouteMilliseconds: Double?

    public init(
      points: Int, lengthMetres: Double, firstBearing: Double, start: WireCoordinate, at: Date,
      request: String? = nil, latencyMilliseconds: Double? = nil, sinceOffRouteMilliseconds: Double? = nil
    ) {
      self.points = points
      self.lengthMetres = lengthMetres
      self.firstBearing = firstBearing
      self.start = start
      self.at = at
      self.request = request
      self.latencyMilliseconds = latencyMilliseconds
      self.sinceOffRouteMilliseconds = sinceOffRouteMilliseconds
    }

    private enum CodingKeys: String, CodingKey {
      case points, start, at, request
      case lengthMetres = "length_m"
      case firstBearing = "first_bearing"
      case latencyMilliseconds = "latency_ms"
      case sinceOffRouteMilliseconds = "since_off_route_ms"
    }
  }
}
