extension DaemonEvent {
  /// A route asked of the provider: from where, to where, how, and the car's course when
  /// its speed makes the course trustworthy (null otherwise).
  public struct RouteAsked: Sendable, Hashable, Codable {
    public var origin: WireCoordinate
    public var destination: WireCoordinate
    public var mode: WireTravelMode
    @ExplicitNull public var course: Double?

    public init(origin: WireCoordinate, destination: WireCoordinate, mode: WireTravelMode, course: Double?) {
      self.origin = origin
      self.destination = destination
      self.mode = mode
      self.course = course
    }
  }
}
