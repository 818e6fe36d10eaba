import ControlProtocol
import DashPilotCore
import FoundationEssentials

/// A shift's `report` answer made from the office's rows, as the daemon makes it from the
/// box's: the same calculator walks the same samples into stretches and gaps, each gap's
/// cause is how its capture session ended (the session message), the stops and the day's
/// time come from the same stop policy, and the figure is the box's own, exactly as sent.
/// So `dashpilot-officed report` and `dashpilotctl report` draw the same shift alike.
public struct OfficeShiftAnswer: Sendable {
  /// The shift's rows, read out of the office's tables.
  public struct Rows: Sendable {
    public var shift: Int64
    /// The shift message's fields: nil until it came (a running shift, or one whose message
    /// has not arrived yet).
    public var startedAt: Date?
    public var endedAt: Date?
    public var startedBy: String?
    public var endedBy: String?
    public var distance: WireDistance?
    public var summary: String?
    /// Every sample of the shift (any order).
    public var samples: [RouteSample]
    /// How each capture session ended, by its id (`sessions`, event `end`).
    public var sessionEnds: [String: String]
    public var jobs: [WireJob]

    public init(
      shift: Int64, startedAt: Date? = nil, endedAt: Date? = nil, startedBy: String? = nil, endedBy: String? = nil,
      distance: WireDistance? = nil, summary: String? = nil, samples: [RouteSample],
      sessionEnds: [String: String] = [:],
      jobs: [WireJob] = []
    ) {
      self.shift = shift
      self.startedAt = startedAt
      self.endedAt = endedAt
      self.startedBy = startedBy
      self.endedBy = endedBy
      self.distance = distance
      self.summary = summary
      self.samples = samples
      self.sessionEnds = sessionEnds
      self.jobs = jobs
    }
  }

  public var rows: Rows
  /// Where the stops are read with (the box's default `[Stops] MinimumStop=`).
  public var stopPolicy = StopPolicy()

  public init(_ rows: Rows) { self.rows = rows }

  public var result: ReportResult {
    let samples = rows.samples.sorted { RouteMileageCalculator.measurementOrder($0, $1) }
    let first = samples.first?.timestamp ?? rows.startedAt ?? Date(timeIntervalSince1970: 0)
    let shift = Shift(
      id: rows.shift, startedAt: rows.startedAt ?? first,
      endedAt: rows.startedAt == nil ? nil : rows.endedAt)
    let measured = shift.measuredRoute(of: samples, calculator: stopPolicy.calculator)
    let unit = rows.distance.flatMap { DistanceUnit(name: $0.unit) } ?? .miles
    let quality = RouteQuality(distance: Self.figure(rows.distance, measured: measured.distance), unit: unit)
    let window = shift.window ?? DateInterval(start: first, end: max(first, samples.last?.timestamp ?? first))
    let stops = stopPolicy.stops(in: measured, window: window)
    let summary = ShiftSummary(
      id: rows.shift, startedAt: shift.startedAt, endedAt: shift.endedAt,
      startedBy: rows.startedBy.flatMap(ShiftStartCause.init(rawValue:)),
      endedBy: rows.endedBy.flatMap(ShiftEndCause.init(rawValue:)),
      distance: rows.distance ?? WireDistance(measured.distance, unit: unit), summary: rows.summary ?? quality.summary,
      details: quality.details, spoken: quality.spoken)
    let gaps = measured.gaps.map { gap -> WireGap in
      var ending: String?
      if case .sessionChanged(let ended?, _) = gap.kind { ending = rows.sessionEnds[ended.rawValue] }
      return WireGap(gap, cause: CaptureGapWording.cause(of: gap.kind, endReason: ending, endDevice: nil))
    }
    let detail = ShiftDetail(
      shift: summary, qualifyingSentences: quality.qualifyingSentences,
      captureSessions: Set(samples.compactMap(\.captureSessionID)).count, gaps: gaps,
      stops: stops.map { WireStop($0) },
      time: WireShiftTime(
        ShiftTime(window: window, route: measured, stops: stops), minimumStop: stopPolicy.minimumStop),
      jobs: rows.jobs)
    let drawing = ReportResult.drawing(measured.stretches, reference: samples.first?.coordinate)
    return ReportResult(
      detail: detail, stretches: drawing.stretches, toleranceMetres: drawing.toleranceMetres, offRoute: nil)
  }

  /// The box's figure as it sent it, with what the office's own rows say of its positions
  /// (assumed accuracy, dates by arrival: the words the figure carries); the office's own
  /// measurement when no shift message has come.
  static func figure(_ sent: WireDistance?, measured: RouteDistance) -> RouteDistance {
    guard let sent else { return measured }
    return RouteDistance(
      metres: sent.metres, segments: sent.segments, gaps: sent.gaps, usablePositions: sent.usablePositions,
      usesInferredContinuity: sent.usesInferredContinuity,
      positionsWithAssumedAccuracy: measured.positionsWithAssumedAccuracy,
      positionsDatedByArrival: measured.positionsDatedByArrival)
  }
}
