/// Where the engine stands with its route.
public enum GuidancePhase: String, Sendable, Hashable, Codable, CaseIterable {
  /// No fix has matched the route yet.
  case waitingForFix = "waiting_for_fix"
  case following = "following"
  /// Leaving the route has been confirmed (count and duration); a reroute is due.
  case offRoute = "off_route"
  /// Within `arrivalDistance` of the end; the engine says nothing more.
  case arrived = "arrived"
}
