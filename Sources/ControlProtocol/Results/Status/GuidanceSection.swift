/// Guidance in `status`: the route followed and where the car stands on it.
public struct GuidanceSection: Sendable, Hashable, Codable {
  public var mode: String
  /// "waiting_for_fix", "following", "off_route" or "arrived".
  public var phase: String
  @ExplicitNull public var distanceRemainingMetres: Double?
  /// A sentence about rerouting, when one is pending or failed.
  @ExplicitNull public var reroute: String?
  /// Metres along the route of the last on-route fix.
  @ExplicitNull public var distanceAlongMetres: Double?
  /// Where the route leads (a loaded route's end).
  @ExplicitNull public var destination: WireCoordinate?
  /// "file", or the provider that planned the route.
  @ExplicitNull public var source: String?

  public init(
    mode: String, phase: String, distanceRemainingMetres: Double? = nil, reroute: String? = nil,
    distanceAlongMetres: Double? = nil, destination: WireCoordinate? = nil, source: String? = nil
  ) {
    self.mode = mode
    self.phase = phase
    self.distanceRemainingMetres = distanceRemainingMetres
    self.reroute = reroute
    self.distanceAlongMetres = distanceAlongMetres
    self.destination = destination
    self.source = source
  }

  enum CodingKeys: String, CodingKey {
    case mode, phase, reroute, destination, source
    case distanceRemainingMetres = "distance_remaining_m"
    case distanceAlongMetres = "distance_along_m"
  }
}
