import ControlProtocol
import DashPilotCore
import FoundationEssentials
import ShiftReport

/// A shift's `report` answer in the reader's words and clock: what the drawing says,
/// decided here so that the renderer only lays it out. Every line and label is the one
/// `shift show` prints or built from the same wording (`CaptureGapWording`); the stops,
/// jobs and places in `ReportContentBuilder+Day.swift`. `dashpilotctl report` builds it
/// from the daemon's answer, `dashpilot-officed report` from the office's rows.
public struct ReportContentBuilder {
  public var result: ReportResult
  /// The route the shift was judged against, as read from its file; empty for none.
  public var route: [GeoCoordinate] = []
  /// "route.gpx (driving)": how the route is named beneath the drawing.
  public var routeName: String?

  public init(result: ReportResult) { self.result = result }

  /// The gaps of `detail` sorted by where they fall: the shift's uncovered start (ending
  /// where capture began), those between stretches, its uncovered end (starting where
  /// capture stopped). The daemon lists them in that order; their times say which is which.
  func partitionedGaps() -> (start: WireGap?, between: [WireGap], end: WireGap?) {
    var gaps = result.detail.gaps
    let points = result.stretches.flatMap { $0 }
    guard let first = points.first?.time, let last = points.last?.time else { return (nil, gaps, nil) }
    // Times on the wire are to the millisecond.
    let slack = 0.0005
    var start: WireGap?
    var end: WireGap?
    if let candidate = gaps.first, candidate.to.timeIntervalSince1970 <= first + slack,
      candidate.from.timeIntervalSince1970 < first - slack
    {
      start = gaps.removeFirst()
    }
    if let candidate = gaps.last, candidate.from.timeIntervalSince1970 >= last - slack,
      candidate.to.timeIntervalSince1970 > last + slack
    {
      end = gaps.removeLast()
    }
    return (start, gaps, end)
  }

  public var content: ShiftReportContent {
    let shift = result.detail.shift
    let gaps = partitionedGaps()
    let points = result.stretches.flatMap { $0 }
    let clock = { (time: Double) in ReaderClock.format(Date(timeIntervalSince1970: time), "%H:%M") }
    var lines = shift.details + result.detail.gaps.map(ShiftLines.gap) + result.detail.qualifyingSentences
    if let routeName, let departures = result.offRoute {
      lines.append(
        departures.isEmpty
          ? "Route \(routeName): guidance confirmed no departure from it."
          : "Route \(routeName): guidance confirmed \(departures.count) "
            + (departures.count == 1 ? "departure" : "departures") + " from it, marked ×.")
    }
    var content = ShiftReportContent(
      title: Self.title(shift),
      stretches: result.stretches.map { $0.map { GeoCoordinate(latitude: $0.lat, longitude: $0.lon) } },
      gapLabels: gaps.between.map(Self.label), startLabel: points.first.map { "start " + clock($0.time) } ?? "",
      endLabel: points.last.map { "end " + clock($0.time) } ?? "", startNote: gaps.start.map(Self.label),
      endNote: gaps.end.map(Self.label), route: route,
      offRoute: (result.offRoute ?? []).map {
        ShiftReportContent.Mark(
          coordinate: GeoCoordinate(latitude: $0.lat, longitude: $0.lon), label: "off route " + clockTime($0.time))
      }, summary: shift.summary, lines: lines, unit: DistanceUnit(name: shift.distance.unit) ?? .miles)
    content.undrawnGaps = Set(gaps.between.indices.filter { gaps.between[$0].cause == CaptureGapWording.privatePlace })
    content.stops = stopMarks
    content.jobs = jobMarks
    content.places = placeShapes
    content.listings = listings
    return content
  }

  /// "Shift #12 · Tue 14 Nov 08:00–09:00", the end left open for a running shift.
  static func title(_ shift: ShiftSummary) -> String {
    let start = ReaderClock.format(shift.startedAt, "%a %d %b %Y %H:%M")
    let end = shift.endedAt.map { "–" + ReaderClock.format($0, "%H:%M") } ?? " (still open)"
    return "Shift #\(shift.id) · \(start)\(end)"
  }

  /// "not counted 08:15–08:22 (7 min)".
  static func label(_ gap: WireGap) -> String {
    let clock = ReaderClock.span(gap.from, gap.to)
    return CaptureGapWording.label(from: clock.from, to: clock.to, seconds: gap.seconds)
  }

  func clockTime(_ date: Date) -> String { ReaderClock.format(date, "%H:%M") }
}
