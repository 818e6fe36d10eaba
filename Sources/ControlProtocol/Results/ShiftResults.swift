import DashPilotCore
import FoundationEssentials

/// A measured distance on the wire, the one JSON shape of a `RouteDistance` wherever one is
/// written (`status`, `shifts`, `shift show`, `replay --json`, the uplink's messages): its
/// members in snake case with the `is`/`uses` dropped, plus the figure in the display unit.
/// `metres` is written to the decimetre, as the uplink always wrote it: positions are kept
/// to about a centimetre and a receiver errs by metres, so further digits say nothing.
public struct WireDistance: Sendable, Hashable, Codable {
  public var metres: Double
  /// The figure in `unit`, one decimal place, null when nothing was measured.
  public var value: Double?
  public var unit: String
  public var segments: Int
  public var gaps: Int
  public var usablePositions: Int
  public var usesInferredContinuity: Bool
  public var isMeasured: Bool
  public var isPartial: Bool

  public init(
    metres: Double, value: Double?, unit: String, segments: Int, gaps: Int, usablePositions: Int,
    usesInferredContinuity: Bool, isMeasured: Bool, isPartial: Bool
  ) {
    self.metres = metres
    self.value = value
    self.unit = unit
    self.segments = segments
    self.gaps = gaps
    self.usablePositions = usablePositions
    self.usesInferredContinuity = usesInferredContinuity
    self.isMeasured = isMeasured
    self.isPartial = isPartial
  }

  /// `distance` with its figure in `unit`: the one conversion from the measurement.
  public init(_ distance: RouteDistance, unit: DistanceUnit) {
    self.init(
      metres: distance.metres,
      value: distance.isMeasured ? (distance.value(in: unit) * 10).rounded(.toNearestOrAwayFromZero) / 10 : nil,
      unit: unit.rawValue, segments: distance.segments, gaps: distance.gaps,
      usablePositions: distance.usablePositions, usesInferredContinuity: distance.usesInferredContinuity,
      isMeasured: distance.isMeasured, isPartial: distance.isPartial)
  }

  public func encode(to encoder: Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    let decimetres = (metres * 10).rounded(.toNearestOrAwayFromZero) / 10
    try container.encode(decimetres.isFinite ? decimetres : metres, forKey: .metres)
    try container.encode(value, forKey: .value)
    try container.encode(unit, forKey: .unit)
    try container.encode(segments, forKey: .segments)
    try container.encode(gaps, forKey: .gaps)
    try container.encode(usablePositions, forKey: .usablePositions)
    try container.encode(usesInferredContinuity, forKey: .usesInferredContinuity)
    try container.encode(isMeasured, forKey: .isMeasured)
    try container.encode(isPartial, forKey: .isPartial)
  }

  enum CodingKeys: String, CodingKey {
    case metres, value, unit, segments, gaps
    case usablePositions = "usable_positions"
    case usesInferredContinuity = "inferred_continuity"
    case isMeasured = "measured"
    case isPartial = "partial"
  }
}

/// A shift as a row: `status`'s open shift, `shifts`, and the answer to `shift start`,
/// `shift end` and `import`. `summary` is RouteQuality's line ("12.4 mi recorded ·
/// partial route"), `details` its counts, `spoken` its spoken form.
/// The answer to `import`: the shift made (its members, as every shift answer has them),
/// and under `import` what the capture rules did with the track's points: kept, of which
/// held or with an assumed accuracy, and refused by reason, as replay counts them.
public struct ImportResult: Sendable, Hashable, Codable {
  public var shift: ShiftSummary
  public var points: Int
  public var kept: Int
  public var held: Int
  public var accuracyAssumed: Int
  /// Refused points by reason (`no_fix`, `negligible_movement`, ...), only reasons that
  /// refused any.
  public var rejected: [String: Int]

  public init(
    shift: ShiftSummary, points: Int, kept: Int, held: Int, accuracyAssumed: Int, rejected: [String: Int]
  ) {
    self.shift = shift
    self.points = points
    self.kept = kept
    self.held = held
    self.accuracyAssumed = accuracyAssumed
    self.rejected = rejected
  }

  private enum Keys: String, CodingKey { case `import` }
  private enum TallyKeys: String, CodingKey {
    case points, kept, held, rejected
    case accuracyAssumed = "accuracy_assumed"
  }

  public init(from decoder: any Decoder) throws {
    shift = try ShiftSummary(from: decoder)
    let tally = try decoder.container(keyedBy: Keys.self).nestedContainer(keyedBy: TallyKeys.self, forKey: .import)
    points = try tally.decode(Int.self, forKey: .points)
    kept = try tally.decode(Int.self, forKey: .kept)
    held = try tally.decode(Int.self, forKey: .held)
    accuracyAssumed = try tally.decode(Int.self, forKey: .accuracyAssumed)
    rejected = try tally.decode([String: Int].self, forKey: .rejected)
  }

  public func encode(to encoder: any Encoder) throws {
    try shift.encode(to: encoder)
    var container = encoder.container(keyedBy: Keys.self)
    var tally = container.nestedContainer(keyedBy: TallyKeys.self, forKey: .import)
    try tally.encode(points, forKey: .points)
    try tally.encode(kept, forKey: .kept)
    try tally.encode(held, forKey: .held)
    try tally.encode(accuracyAssumed, forKey: .accuracyAssumed)
    try tally.encode(rejected, forKey: .rejected)
  }

  /// "3 no_fix, 120 negligible_movement", reasons in name order; "nothing" for none.
  public static func describe(_ rejected: [String: Int]) -> String {
    let parts = rejected.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }
    return parts.isEmpty ? "nothing refused" : parts.joined(separator: ", ")
  }
}

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
  /// In `status`, the open shift's standing: its keys appear there only.
  public var live: Live?

  /// Whether the open shift is moving, how long it has not, and when it ends by itself.
  public struct Live: Sendable, Hashable {
    /// The shift's last moving fix while the vehicle has not moved since (it stands, or no
    /// fix comes), on the receiver's clock; nil while it moves.
    public var stoppedSince: Date?
    /// How long ago that was, by the receiver's clock now.
    public var stoppedSeconds: Double?
    /// It ends by itself after this long without a move; nil: only by hand.
    public var endsAfterStopSeconds: Double?
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
    if let waiting = try container.decodeIfPresent(Bool.self, forKey: .waitingForFix) {
      live = Live(
        stoppedSince: try container.decodeIfPresent(Date.self, forKey: .stoppedSince),
        stoppedSeconds: try container.decodeIfPresent(Double.self, forKey: .stoppedSeconds),
        endsAfterStopSeconds: try container.decodeIfPresent(Double.self, forKey: .endsAfterStopSeconds),
        waitingForFix: waiting)
    }
  }

  public func encode(to encoder: Encoder) throws {
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
    if let live {
      try container.encode(live.stoppedSince, forKey: .stoppedSince)
      try container.encode(live.stoppedSeconds, forKey: .stoppedSeconds)
      try container.encode(live.endsAfterStopSeconds, forKey: .endsAfterStopSeconds)
      try container.encode(live.waitingForFix, forKey: .waitingForFix)
    }
  }

  enum CodingKeys: String, CodingKey {
    case id, distance, summary, details, spoken
    case startedAt = "started_at"
    case endedAt = "ended_at"
    case startedBy = "started_by"
    case endedBy = "ended_by"
    case stoppedSince = "stopped_since"
    case stoppedSeconds = "stopped_seconds"
    case endsAfterStopSeconds = "ends_after_stop_seconds"
    case waitingForFix = "waiting_for_fix"
  }
}

/// `shifts`: newest first, and what the box keeps (`[Store] KeepDays=`, the free-space floor).
public struct ShiftsResult: Sendable, Hashable, Codable {
  public var shifts: [ShiftSummary]
  public var kept: String?
  public init(shifts: [ShiftSummary], kept: String? = nil) {
    self.shifts = shifts
    self.kept = kept
  }
}

/// `shift show ID`: the row plus the sentences that qualify its figure, and each capture
/// gap with its times and cause.
public struct ShiftDetail: Sendable, Hashable, Codable {
  public var shift: ShiftSummary
  public var qualifyingSentences: [String]
  public var captureSessions: Int
  /// Every gap the figure's count includes, in time order (an uncovered start of the
  /// shift first, an uncovered end last).
  public var gaps: [WireGap]

  public init(shift: ShiftSummary, qualifyingSentences: [String], captureSessions: Int, gaps: [WireGap] = []) {
    self.shift = shift
    self.qualifyingSentences = qualifyingSentences
    self.captureSessions = captureSessions
    self.gaps = gaps
  }

  enum CodingKeys: String, CodingKey {
    case shift, gaps
    case qualifyingSentences = "qualifying_sentences"
    case captureSessions = "capture_sessions"
  }
}

/// One capture gap on the wire: `{from, to, seconds, cause}`. Its length is a time and
/// never a distance; `cause` is `CaptureGapWording`'s ("receiver /dev/ttyACM0 removed",
/// "no fixes", "shift started before capture"), null where capture recorded none.
public struct WireGap: Sendable, Hashable, Codable {
  public var from: Date
  public var to: Date
  public var seconds: Double
  public var cause: String?

  public init(from: Date, to: Date, seconds: Double, cause: String?) {
    self.from = from
    self.to = to
    self.seconds = seconds
    self.cause = cause
  }

  /// `gap`'s times and the cause found for it.
  public init(_ gap: RouteGap, cause: String?) {
    self.init(from: gap.from, to: gap.to, seconds: gap.seconds, cause: cause)
  }

  /// Every member written, a missing cause as null, so each gap has the same shape.
  public func encode(to encoder: Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(from, forKey: .from)
    try container.encode(to, forKey: .to)
    try container.encode(seconds, forKey: .seconds)
    try container.encode(cause, forKey: .cause)
  }

  enum CodingKeys: String, CodingKey { case from, to, seconds, cause }
}

/// `export ID`: the shift's positions split at every gap, so the client writes each
/// continuous stretch as its own GPX `trkseg` (GeoJSON `MultiLineString` line).
public struct ExportResult: Sendable, Hashable, Codable {
  public var shift: ShiftSummary
  public var segments: [[WireTrackPoint]]

  public init(shift: ShiftSummary, segments: [[WireTrackPoint]]) {
    self.shift = shift
    self.segments = segments
  }
}

/// The answer to every part of a multi-part `import` or `route load` but the last.
public struct PartAccepted: Sendable, Hashable, Codable {
  /// Points received so far on this connection for this command.
  public var received: Int
  public var more: Bool

  public init(received: Int, more: Bool = true) {
    self.received = received
    self.more = more
  }
}

/// `route load` and `navigate`: the route now followed.
public struct RouteResult: Sendable, Hashable, Codable {
  public var name: String?
  public var mode: WireTravelMode
  public var points: Int
  public var lengthMetres: Double
  /// "file", or the provider that planned it ("valhalla", "osrm").
  public var source: String

  public init(name: String?, mode: WireTravelMode, points: Int, lengthMetres: Double, source: String) {
    self.name = name
    self.mode = mode
    self.points = points
    self.lengthMetres = lengthMetres
    self.source = source
  }

  enum CodingKeys: String, CodingKey {
    case name, mode, points, source
    case lengthMetres = "length_m"
  }
}

/// `route clear`, `events` and other answers that only confirm.
public struct Acknowledgement: Sendable, Hashable, Codable {
  public var message: String
  public init(message: String) { self.message = message }
}
