import Foundation

/// What one fix changed. Every event returned by `GuidanceEngine.update(_:)` happened at that
/// fix's `timestamp`: the caller pairs them (see `TimedGuidanceEvent`) rather than every case
/// repeating the time.
public enum GuidanceEvent: Sendable, Hashable, Codable {
  /// The first fix that matched the route.
  case joined
  /// Leaving the route is confirmed; exactly one per departure. `lateral` is the distance from
  /// the route of the fix that confirmed it, or infinity when no part of the route was within
  /// the search (a car that never joined): encode it with care, JSON has no infinity.
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

/// An event with the time of the fix that caused it, for callers that log or queue events.
public struct TimedGuidanceEvent: Sendable, Hashable, Codable {
  public var timestamp: Date
  public var event: GuidanceEvent

  public init(_ event: GuidanceEvent, at timestamp: Date) {
    self.event = event
    self.timestamp = timestamp
  }
}
