import FoundationEssentials

/// Names one provider call, so an answer that arrives after its departure ended is told
/// apart from the answer the coordinator is waiting for.
public struct RerouteRequestID: Sendable, Hashable, Codable, Comparable, CustomStringConvertible {
  public let value: Int

  public init(_ value: Int) {
    self.value = value
  }

  public static func < (a: Self, b: Self) -> Bool { a.value < b.value }
  public var description: String { "reroute-\(value)" }
}

/// What the caller must do (or may log) after the coordinator has seen something.
public enum RerouteAction: Sendable, Hashable {
  /// Say this line.
  case announce(Announcement)
  /// Ask the provider for `request`, off the state owner's loop, and hand the result back with
  /// `answer(_:for:now:)`. Every request gets exactly one answer, even one the caller
  /// abandoned (answer it with a failure): until then no other request is started, so calls
  /// never overlap.
  case requestRoute(RerouteRequestID, RouteRequest)
  /// The car is back on route (or has arrived): the answer to this request will be discarded.
  case cancelled(RerouteRequestID)
  /// A late answer to a cancelled request was dropped.
  case discarded(RerouteRequestID)
  /// Follow this route now: a fresh engine on it, fed `latestFix` at once
  /// (`GuidanceEngine.starting(on:config:with:)`, which `GuidanceSession` does itself).
  case installRoute(GuidanceRoute, latestFix: GuidanceFix?)
  /// A transient failure; the request is asked again at `retryAt` if still off route.
  case retryScheduled(at: Date, after: RouteFailure)
  /// A permanent failure: no more requests for this departure.
  case gaveUp(RouteFailure)
}
