import DashPilotCore
import FoundationEssentials

/// Everything a drawing of one shift says, decided before it is drawn: positions, and the
/// words already in the reader's clock and the seed's vocabulary. The renderer only lays
/// it out (`ShiftReportSVG`), so it is a value in and text out.
public struct ShiftReportContent: Sendable, Hashable {
  /// A mark on the drawing with its label: an off-route moment, or a visited job's
  /// destination ("job A1 · stop 1", drawn as a triangle). The delivery day's other marks
  /// are in `ShiftReportContent+Day.swift`.
  public struct Mark: Sendable, Hashable {
    public var coordinate: GeoCoordinate
    public var label: String

    public init(coordinate: GeoCoordinate, label: String) {
      self.coordinate = coordinate
      self.label = label
    }
  }

  /// "Shift #12 · Tue 14 Nov 08:00–09:00".
  public var title: String
  /// Each unbroken stretch of capture in time order. A stretch of one position is a lone
  /// fix: drawn as a dot, it contributed no distance.
  public var stretches: [[GeoCoordinate]]
  /// The label of the gap after each stretch but the last ("not counted 08:15–08:22
  /// (7 min)"): element `i` joins the last position of stretch `i` to the first of `i + 1`.
  public var gapLabels: [String]
  /// The gaps (indices into `gapLabels`) whose line is not drawn: a private place's, since
  /// the straight line between the positions either side of it would cross the place. They
  /// are listed beneath like every gap.
  public var undrawnGaps: Set<Int> = []
  /// The gaps (indices into `gapLabels`) drawn as a dashed line between the stretches
  /// either side: every one but a private place's.
  public var drawnGaps: [Int] {
    let drawnStretches = stretches.filter { !$0.isEmpty }.count
    return gapLabels.indices.filter { $0 + 1 < drawnStretches && !undrawnGaps.contains($0) }
  }
  /// Beside the first and the last position: "start 08:05", "end 08:55".
  public var startLabel: String
  public var endLabel: String
  /// Under them, the shift's own uncovered start or end, when it has one ("not counted
  /// 08:00–08:05 (5 min)"): a gap with no line to draw, since nothing was recorded before.
  public var startNote: String?
  public var endNote: String?
  /// The route the shift was judged against, drawn underneath in grey; empty for none.
  public var route: [GeoCoordinate]
  /// Each confirmed departure from the route.
  public var offRoute: [Mark]
  /// The figure's line ("12.7 mi recorded · partial route"), first beneath the drawing.
  public var summary: String
  /// The lines after it: counts, gaps, qualifying sentences.
  public var lines: [String]
  /// The unit of the scale bar: the figure's.
  public var unit: DistanceUnit
  /// The stops, numbered as `shift show` numbers them.
  public var stops: [StopMark] = []
  /// The destinations of the jobs visited in the shift.
  public var jobs: [Mark] = []
  /// The places around what is drawn, drawn beneath it.
  public var places: [PlaceShape] = []
  /// The lists after `lines`: the stops, the jobs, the places.
  public var listings: [Listing] = []

  public init(
    title: String, stretches: [[GeoCoordinate]], gapLabels: [String], startLabel: String, endLabel: String,
    startNote: String? = nil, endNote: String? = nil, route: [GeoCoordinate] = [], offRoute: [Mark] = [],
    summary: String, lines: [String], unit: DistanceUnit
  ) {
    self.title = title
    self.stretches = stretches
    self.gapLabels = gapLabels
    self.startLabel = startLabel
    self.endLabel = endLabel
    self.startNote = startNote
    self.endNote = endNote
    self.route = route
    self.offRoute = offRoute
    self.summary = summary
    self.lines = lines
    self.unit = unit
  }

  /// Whether there is anything to draw: a shift with no usable position draws nothing, and
  /// its summary says which kind of nothing it is.
  public var hasPositions: Bool { stretches.contains { !$0.isEmpty } }
}
