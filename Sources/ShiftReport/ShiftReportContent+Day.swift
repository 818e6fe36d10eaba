import DashPilotCore
import FoundationEssentials

/// The delivery day on the drawing: the stops, the office's jobs visited at them, the
/// places around them, and the lists beneath the drawing that give each in full.
extension ShiftReportContent {
  /// A stop, marked where the vehicle stood by a diamond and a numbered badge ("1 · 5 min")
  /// whose number is the one `shift show` and the list beneath give it.
  public struct StopMark: Sendable, Hashable {
    public var coordinate: GeoCoordinate
    public var number: Int
    /// "1 · 5 min": its number and how long it stood.
    public var label: String

    public init(coordinate: GeoCoordinate, number: Int, label: String) {
      self.coordinate = coordinate
      self.number = number
      self.label = label
    }
  }

  /// A place, drawn as its outline over a pale fill and named by its label ("Depot (depot)").
  public struct PlaceShape: Sendable, Hashable {
    public var area: PlaceArea
    public var label: String

    public init(area: PlaceArea, label: String) {
      self.area = area
      self.label = label
    }
  }

  /// Lines beneath the drawing after the shift's own, under a class that says what they
  /// list (`stop-line`, `job-line`, `place-line`).
  public struct Listing: Sendable, Hashable {
    public var kind: String
    public var lines: [String]

    public init(kind: String, lines: [String]) {
      self.kind = kind
      self.lines = lines
    }
  }

  /// What the drawing is fitted to: everything drawn but the places, which are cut at the
  /// map's edge rather than shrinking a shift to fit a large one.
  var fitted: [GeoCoordinate] {
    stretches.flatMap { $0 } + route + offRoute.map(\.coordinate) + stops.map(\.coordinate) + jobs.map(\.coordinate)
  }
}
