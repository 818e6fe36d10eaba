import DashPilotCore

/// A measured distance on the wire, the one JSON shape of a `RouteDistance` wherever one is
/// written (`status`, `shifts`, `shift show`, `replay --json`, the uplink's messages): its
/// members in snake case with the `is`/`uses` dropped, plus the figure in the display unit.
/// `metres` is written to the decimetre.
public struct WireDistance: Sendable, Hashable, Codable {
  @Decimetres public var metres: Double
  /// The figure in `unit`, one decimal place, null when nothing was measured.
  @ExplicitNull public var value: Double?
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

  enum CodingKeys: String, CodingKey {
    case metres, value, unit, segments, gaps
    case usablePositions = "usable_positions"
    case usesInferredContinuity = "inferred_continuity"
    case isMeasured = "measured"
    case isPartial = "partial"
  }
}
