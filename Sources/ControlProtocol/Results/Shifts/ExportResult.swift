/// `export ID`: the shift's positions split at every gap, so the client writes each
/// continuous stretch as its own GPX `trkseg` (GeoJSON `MultiLineString` line), and its
/// stops, as `shift show` lists them, which GPX writes as waypoints.
public struct ExportResult: Sendable, Hashable, Codable {
  public var shift: ShiftSummary
  public var segments: [[WireTrackPoint]]
  public var stops: [WireStop]

  public init(shift: ShiftSummary, segments: [[WireTrackPoint]], stops: [WireStop] = []) {
    self.shift = shift
    self.segments = segments
    self.stops = stops
  }
}
