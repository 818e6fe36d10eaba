import FoundationEssentials

/// What one fix changed. Every event returned by `GuidanceEngine.update(_:)` happened at that
/// fix's `timestamp`: the caller pairs them (see `TimedGuidanceEvent`) rather than every case
/// repeating the time.
public enum GuidanceEvent: Sendable, Hashable {
  /// The first fix that matched the route.
  case joined
  /// Leaving the route is confirmed; exactly one per departure. `lateral` is the distance from
  /// the route of the fix that confirmed it, or infinity when no part of the route was within
  /// the search (a car that never joined; encoded as `null`, JSON has no infinity).
  case offRoute(lateral: Double)
  /// A fix matched the route again after `offRoute`.
  case backOnRoute
  /// Metres along the route and metres still to go: on joining, on coming back, and then
  /// every `progressInterval` metres.
  case progress(along: Double, remaining: Double)
  /// Within `arrivalDistance` of the end, with the progress to show it is the end and not a
  /// loop passing its own start. Nothing follows.
  case arrived

  /// A stable snake-case name for logs and JSON lines.
  public var name: String {
    switch self {
    case .joined: "joined"
    case .offRoute: "off_route"
    case .backOnRoute: "back_on_route"
    case .progress: "progress"
    case .arrived: "arrived"
    }
  }
}

/// Encoded flat for JSON lines: `{"event":"progress","along":120.5,"remaining":880.2}`,
/// `{"event":"off_route","lateral":61.2}` (`null` when infinite), `{"event":"joined"}`.
extension GuidanceEvent: Codable {
  private enum CodingKeys: String, CodingKey {
    case event, lateral, along, remaining
  }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let name = try container.decode(String.self, forKey: .event)
    switch name {
    case "joined": self = .joined
    case "back_on_route": self = .backOnRoute
    case "arrived": self = .arrived
    case "off_route":
      self = .offRoute(lateral: try container.decodeIfPresent(Double.self, forKey: .lateral) ?? .infinity)
    case "progress":
      self = .progress(
        along: try container.decode(Double.self, forKey: .along),
        remaining: try container.decode(Double.self, forKey: .remaining))
    default:
      throw DecodingError.dataCorruptedError(
        forKey: .event, in: container, debugDescription: "unknown guidance event \"\(name)\"")
    }
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(name, forKey: .event)
    switch self {
    case .offRoute(let lateral):
      if lateral.isFinite {
        try container.encode(lateral, forKey: .lateral)
      } else {
        try container.encodeNil(forKey: .lateral)
      }
    case .progress(let along, let remaining):
      try container.encode(along, forKey: .along)
      try container.encode(remaining, forKey: .remaining)
    case .joined, .backOnRoute, .arrived:
      break
    }
  }
}

/// An event with the time of the fix that caused it, for callers that log or queue events.
public struct TimedGuidanceEvent: Sendable, Hashable, Codable {
  public var timestamp: Date
  public var event: GuidanceEvent

  public init(_ event: GuidanceEvent, at timestamp: Date) {
    self.event = event
    self.timestamp = timestamp
  }
}
