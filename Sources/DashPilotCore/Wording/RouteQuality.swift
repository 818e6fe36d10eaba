/// The vocabulary for a measured route, displayed and spoken. A recorded route is a floor
/// on the distance driven and almost every natural phrase for it claims more, so the
/// wording lives in one tested type. It never says total, complete, tax or deductible,
/// gives no percentage, and never shows an unmeasurable route as a zero figure.
public struct RouteQuality: Sendable, Hashable {
  public enum Kind: String, Sendable, Hashable, Codable {
    case measured
    /// No usable position was recorded at all.
    case noUsablePositions = "no_usable_positions"
    /// Positions exist, but no two of them were captured continuously.
    case noContinuousPositions = "no_continuous_positions"
  }

  public let distance: RouteDistance
  public let unit: DistanceUnit
  public let separators: NumberSeparators

  public init(
    distance: RouteDistance, unit: DistanceUnit = .miles, separators: NumberSeparators = .posix
  ) {
    self.distance = distance
    self.unit = unit
    self.separators = separators
  }

  public var kind: Kind {
    if distance.isMeasured { return .measured }
    return distance.usablePositions == 0 ? .noUsablePositions : .noContinuousPositions
  }

  /// The two-word marker beside a partial figure.
  public static let partialMarker = "· partial route"

  /// "12.4 mi", or nil when nothing was measured: an unmeasurable route has no figure.
  public var figure: String? {
    kind == .measured ? distance.formatted(in: unit, separators: separators) : nil
  }

  /// The marker beside a figure some of whose positions had their accuracy assumed.
  public static let assumedAccuracyMarker = "· accuracy assumed"

  /// The marker beside a figure some of whose positions were dated by their arrival.
  public static let arrivalDatesMarker = "· dated by arrival"

  /// The one line beside a shift: "12.4 mi recorded · partial route", or which kind of
  /// nothing an unmeasurable route is.
  public var summary: String {
    guard let figure else { return unmeasurableSentence }
    var line = "\(figure) recorded"
    if distance.isPartial { line += " \(Self.partialMarker)" }
    if distance.usesAssumedAccuracy { line += " \(Self.assumedAccuracyMarker)" }
    if distance.usesArrivalDates { line += " \(Self.arrivalDatesMarker)" }
    return line
  }

  /// The counts behind the figure; none for an unmeasurable route (no counts rather than
  /// counts of zero).
  public var details: [String] {
    guard kind == .measured else { return [] }
    var lines = [
      count(distance.segments, "unbroken stretch of capture", "unbroken stretches of capture"),
      distance.gaps == 0
        ? "No capture gaps detected" : count(distance.gaps, "capture gap", "capture gaps"),
    ]
    if distance.usesInferredContinuity { lines.append(Self.inferredSentence) }
    return lines
  }

  /// The sentences that qualify the figure on a detail screen.
  public var qualifyingSentences: [String] {
    guard kind == .measured else { return [] }
    var sentences: [String] = []
    if distance.isPartial { sentences.append(Self.partialSentence) }
    if distance.usesAssumedAccuracy { sentences.append(Self.assumedAccuracySentence) }
    if distance.usesArrivalDates { sentences.append(Self.arrivalDatesSentence) }
    return sentences
  }

  /// The bare spoken figure, units spelled out: "12.4 miles recorded". The detail screen
  /// speaks this and reads the caveats separately, so nothing is said twice.
  public var spokenMileage: String {
    guard kind == .measured else { return unmeasurableSentence }
    return "\(separators.format(distance.value(in: unit), fractionDigits: 1)) \(unit.spokenName) recorded"
  }

  /// The spoken summary: the figure with its unit spelled out, and partiality as a full
  /// sentence, once.
  public var spoken: String {
    guard kind == .measured else { return unmeasurableSentence + "." }
    return (["\(spokenMileage)."] + qualifyingSentences).joined(separator: " ")
  }

  static let partialSentence =
    "This is a partial route: capture was interrupted, so more was driven than was recorded."
  static let assumedAccuracySentence =
    "The receiver reports no error estimate, so the accuracy of its positions was assumed."
  static let arrivalDatesSentence =
    "The receiver sends no date, so its positions were dated by the box's clock when they arrived."
  static let inferredSentence =
    "Continuity was inferred from timestamps, so capture gaps cannot be seen."

  private var unmeasurableSentence: String {
    switch kind {
    case .noUsablePositions: "No distance measured: no usable position was recorded"
    case .noContinuousPositions:
      "No distance measured: no two positions were captured continuously"
    case .measured: ""
    }
  }

  private func count(_ n: Int, _ singular: String, _ plural: String) -> String {
    "\(n) \(n == 1 ? singular : plural)"
  }
}
