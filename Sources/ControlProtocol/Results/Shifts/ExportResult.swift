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
