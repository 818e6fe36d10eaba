import FoundationEssentials

extension DaemonEvent {
  /// A reroute request the car no longer needs, or whose late answer was dropped.
  public struct RerouteRef: Sendable, Hashable, Codable {
    public var request: String
    @EventTime public var at: Date

    public init(request: String, at: Date) {
      self.request = request
      self.at = at
    }
  }
}
