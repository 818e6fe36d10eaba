import DashPilotCore
import FoundationEssentials

/// Where everything of a report goes: the title, the map with the drawing fitted into it,
/// the legend, the lines beneath. Public so a test can find where a position was drawn.
public struct ShiftReportLayout: Sendable {
  public static let width = 800.0
  static let side = 24.0
  static let titleBaseline = 34.0
  static let mapTop = 50.0
  /// Clear space inside the map around the drawing, for markers and their labels.
  static let mapMargin = 40.0
  static let legendRowHeight = 22.0
  static let lineHeight = 20.0
  /// Characters of a line beneath the drawing before it wraps (13-unit text, 752 wide).
  static let lineWidth = 108

  public let map: ReportRect
  /// Nil when there is nothing to draw.
  public let projection: ReportProjection?
  public let legendTop: Double
  public let linesTop: Double
  public let height: Double
  /// The lines beneath the drawing after wrapping, the summary's first; each other line
  /// with its class (`line`, or its listing's kind).
  let summaryLines: [String]
  let otherLines: [(kind: String, text: String)]

  public init(_ content: ShiftReportContent) {
    let drawn = content.fitted
    let mapWidth = Self.width - 2 * Self.side
    var mapHeight = 240.0
    if let (_, low, high) = ReportProjection.bounds(of: drawn) {
      let inner = mapWidth - 2 * Self.mapMargin
      let aspect = (high.y - low.y) / (high.x - low.x)
      mapHeight =
        ReportProjection.height(forWidth: inner, aspect: aspect, minimum: 220, maximum: 640)
        + 2 * Self.mapMargin
    }
    map = ReportRect(x: Self.side, y: Self.mapTop, width: mapWidth, height: mapHeight)
    projection = ReportProjection(fitting: drawn, in: map, margin: Self.mapMargin)
    legendTop = map.y + map.height + 12
    let legendRows = projection == nil ? 0 : ShiftReportLegend.items(content).rows(width: mapWidth).count
    linesTop = legendTop + Double(legendRows) * Self.legendRowHeight + 18
    summaryLines = SVGText.wrapped(content.summary, width: Self.lineWidth * 13 / 15)
    let listings = [ShiftReportContent.Listing(kind: "line", lines: content.lines)] + content.listings
    otherLines = listings.flatMap { listing in
      listing.lines.flatMap { SVGText.wrapped($0, width: Self.lineWidth) }.map { (listing.kind, $0) }
    }
    height = (linesTop + Double(summaryLines.count + otherLines.count) * Self.lineHeight + 16).rounded(.up)
  }
}
