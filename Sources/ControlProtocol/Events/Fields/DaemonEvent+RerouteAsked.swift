import FoundationEssentials

extension DaemonEvent {
  /// A reroute asked for: the route asked, which request it is ("reroute-2") and when,
  /// the route's members beside the other two.
  public struct RerouteAsked: Sendable, Hashable, Codable {
    public var route: RouteAsked
    public var request: String
    @EventTime public var at: Date

    public init(route: RouteAsked, request: String, at: Date) {
      self.route = route
      self.request = request
      self.at = at
    }

    private enum CodingKeys: String, CodingKey { case request, at }

    public init(from decoder: any Decoder) throws {
      route = try RouteAsked(from: decoder)
      let container = try decoder.container(keyedBy: CodingKeys.self)
      request = try container.decode(String.self, forKey: .request)
      _at = try container.decode(EventTime.self, forKey: .at)
    }

    public func encode(to encoder: any Encoder) throws {
      try route.encode(to: encoder)
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(request, forKey: .request)
      try container.encode(_at, forKey: .at)
    }
  }
}
