import DashPilotCore
import FoundationEssentials

/// A shift as a row: `status`'s open shift, `shifts`, and the answer to `shift start`,
/// `shift end` and `import`. `summary` is RouteQuality's line ("12.4 mi recorded ·
/// partial route"), `details` its counts, `spoken` its spoken form.
public struct ShiftSummary: Sendable, Hashable, Codable {
  public var id: Int64
  public var startedAt: Date
  public var endedAt: Date?
  /// How it started, and how it ended (null while open, and when the box did not record it).
  public var startedBy: ShiftStartCause?
  public var endedBy: ShiftEndCause?
  public var distance: WireDistance
  public var summary: String
  public var details: [String]
  public var spoken: String
  /// In `status`, the open shift's standing: its keys appear there only, beside the row's.
  public var live: Live?

  /// Whether the open shift is moving, how long it has not, and when it ends by itself.
  public struct Live: Sendable, Hashable, Codable {
    /// The shift's last moving fix while the vehicle has not moved since (it stands, or no
    /// fix comes), on the receiver's clock; nil while it moves.
    @ExplicitNull public var stoppedSince: Date?
    /// How long ago that was, by the receiver's clock now.
    @ExplicitNull public var stoppedSeconds: Double?
    /// It ends by itself after this long without a move; nil: only by hand.
    @ExplicitNull public var endsAfterStopSeconds: Double?
    /// Resumed after a restart, no fix yet: the next fix decides whether it goes on.
    public var waitingForFix: Bool

    public init(
      stoppedSince: Date? = nil, stoppedSeconds: Double? = nil, endsAfterStopSeconds: Double? = nil,
      waitingForFix: Bool = false
    ) {
      self.stoppedSince = stoppedSince
      self.stoppedSeconds = stoppedSeconds
      self.endsAfterStopSeconds = endsAfterStopSeconds
      self.waitingForFix = waitingForFix
    }

    enum CodingKeys: String, CodingKey {
      case stoppedSince = "stopped_since"
      case stoppedSeconds = "stopped_seconds"
      case endsAfterStopSeconds = "ends_after_stop_seconds"
      case waitingForFix = "waiting_for_fix"
    }
  }

  public init(
    id: Int64, startedAt: Date, endedAt: Date?, startedBy: ShiftStartCause? = nil, endedBy: ShiftEndCause? = nil,
    distance: WireDistance, summary: String, details: [String], spoken: String, live: Live? = nil
  ) {
    self.id = id
    self.startedAt = startedAt
    self.endedAt = endedAt
    self.startedBy = startedBy
    self.endedBy = endedBy
    self.distance = distance
    self.summary = summary
    self.details = details
    self.spoken = spoken
    self.live = live
  }

  enum CodingKeys: String, CodingKey {
    case id, distance, summary, details, spoken
    case startedAt = "started_at"
    case endedAt = "ended_at"
    case startedBy = "started_by"
    case endedBy = "ended_by"
  }
}

// `live` is written flat, beside the row's members (a missing one as null), and read back
// when `waiting_for_fix` is there, so the row is written member by member.
extension ShiftSummary {
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    id = try container.decode(Int64.self, forKey: .id)
    startedAt = try container.decode(Date.self, forKey: .startedAt)
    endedAt = try container.decodeIfPresent(Date.self, forKey: .endedAt)
    startedBy = try container.decodeIfPresent(ShiftStartCause.self, forKey: .startedBy)
    endedBy = try container.decodeIfPresent(ShiftEndCause.self, forKey: .endedBy)
    distance = try container.decode(WireDistance.self, forKey: .distance)
    summary = try container.decode(String.self, forKey: .summary)
    details = try container.decode([String].self, forKey: .details)
    spoken = try container.decode(String.self, forKey: .spoken)
    let standing = try decoder.container(keyedBy: Live.CodingKeys.self)
    if try standing.decodeIfPresent(Bool.self, forKey: .waitingForFix) != nil { live = try Live(from: decoder) }
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(id, forKey: .id)
    try container.encode(startedAt, forKey: .startedAt)
    try container.encode(endedAt, forKey: .endedAt)
    try container.encode(startedBy, forKey: .startedBy)
    try container.encode(endedBy, forKey: .endedBy)
    try container.encode(distance, forKey: .distance)
    try container.encode(summary, forKey: .summary)
    try container.encode(details, forKey: .details)
    try container.encode(spoken, forKey: .spoken)
    try live?.encode(to: encoder)
  }
}
