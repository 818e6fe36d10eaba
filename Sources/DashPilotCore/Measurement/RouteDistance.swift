import FoundationEssentials

/// A measured route: not an unexplained Double but the distance together with what was
/// left out of it.
public struct RouteDistance: Sendable, Hashable {
  /// Distance summed within continuous segments, in metres.
  public var metres: Double
  /// Continuous segments that contributed distance (at least two positions).
  public var segments: Int
  /// Breaks in capture that were excluded, including uncovered ends of a known window.
  public var gaps: Int
  /// Positions that could describe somewhere on Earth and were walked.
  public var usablePositions: Int
  /// Whether continuity between any two positions was inferred from timestamps because
  /// they carry no capture session (tracks imported from other loggers).
  public var usesInferredContinuity: Bool
  /// Usable positions whose accuracy was assumed: their receiver reported no error
  /// estimate, so capture judged them with `RouteSampleFilterConfiguration.assumedAccuracy`.
  public var positionsWithAssumedAccuracy: Int
  /// Usable positions dated by their arrival on the box's clock: their receiver sent no
  /// date (`RouteSample.isDatedByArrival`).
  public var positionsDatedByArrival: Int

  public init(
    metres: Double, segments: Int, gaps: Int, usablePositions: Int, usesInferredContinuity: Bool,
    positionsWithAssumedAccuracy: Int = 0, positionsDatedByArrival: Int = 0
  ) {
    self.metres = metres
    self.segments = segments
    self.gaps = gaps
    self.usablePositions = usablePositions
    self.usesInferredContinuity = usesInferredContinuity
    self.positionsWithAssumedAccuracy = positionsWithAssumedAccuracy
    self.positionsDatedByArrival = positionsDatedByArrival
  }

  public static let empty = RouteDistance(
    metres: 0, segments: 0, gaps: 0, usablePositions: 0, usesInferredContinuity: false)

  /// Whether any distance was measured at all.
  public var isMeasured: Bool { segments > 0 }

  /// Whether the figure is known to be less than the distance driven: gaps were seen, or
  /// continuity was inferred so gaps could not be seen.
  public var isPartial: Bool { gaps > 0 || usesInferredContinuity }

  /// Whether any position's accuracy was assumed rather than reported.
  public var usesAssumedAccuracy: Bool { positionsWithAssumedAccuracy > 0 }

  /// Whether any position was dated by its arrival rather than by its receiver.
  public var usesArrivalDates: Bool { positionsDatedByArrival > 0 }

  /// The distance in `unit`, the one place metres are converted.
  public func value(in unit: DistanceUnit) -> Double { metres / unit.metres }

  /// The figure with one decimal place and the unit's symbol, such as "12.4 mi". The
  /// locale only supplies separators, so the daemon can format without loading ICU.
  public func formatted(in unit: DistanceUnit, separators: NumberSeparators = .posix) -> String {
    "\(separators.format(value(in: unit), fractionDigits: 1)) \(unit.symbol)"
  }

  public func formattedMiles(locale: Locale) -> String {
    formatted(in: .miles, separators: NumberSeparators(locale: locale))
  }

  public func formattedKilometres(locale: Locale) -> String {
    formatted(in: .kilometres, separators: NumberSeparators(locale: locale))
  }
}
