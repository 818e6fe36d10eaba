import FoundationEssentials

/// Capture in `status`: the current session and what the capture rules did in it.
public struct CaptureSection: Sendable, Hashable, Codable {
  /// The current capture session's id, null between sessions.
  @ExplicitNull public var session: String?
  @ExplicitNull public var sessionStartedAt: Date?
  /// Fixes kept in this session; null until capture is plugged in.
  @ExplicitNull public var accepted: Int?
  /// Fixes refused in this session, by reason (`no_fix`, `stale`, ...); null until capture
  /// is plugged in.
  @ExplicitNull public var rejected: [String: Int]?
  /// Of the kept: held samples (the vehicle stood still), samples whose accuracy was
  /// assumed because the receiver reports no error estimate, and samples dated by their
  /// arrival because it sends no date (`[Capture] DateByArrival=`).
  @ExplicitNull public var held: Int?
  @ExplicitNull public var accuracyAssumed: Int?
  @ExplicitNull public var datedByArrival: Int?
  /// The stop the vehicle stands in now, null while it moves.
  @ExplicitNull public var stop: CurrentStop?

  public init(
    session: String? = nil, sessionStartedAt: Date? = nil, accepted: Int? = nil, rejected: [String: Int]? = nil,
    held: Int? = nil, accuracyAssumed: Int? = nil, datedByArrival: Int? = nil, stop: CurrentStop? = nil
  ) {
    self.session = session
    self.sessionStartedAt = sessionStartedAt
    self.accepted = accepted
    self.rejected = rejected
    self.held = held
    self.accuracyAssumed = accuracyAssumed
    self.datedByArrival = datedByArrival
    self.stop = stop
  }

  enum CodingKeys: String, CodingKey {
    case session, accepted, rejected, held, stop
    case sessionStartedAt = "session_started_at"
    case accuracyAssumed = "accuracy_assumed"
    case datedByArrival = "dated_by_arrival"
  }
}
