/// `export ID`: the shift's positions split at every gap, so the client writes each
/// continuous stretch as its own GPX `trkseg` (GeoJSON `MultiLineString` line), and its
/// stops, as `shift show` lists them, which GPX writes as waypoints. A long shift's answer
/// comes in parts: this is its head, and `TrackPart`s carry the rest of the segments.
public struct ExportResult: Sendable, Hashable, Codable, PartedTrackAnswer {
  public var shift: ShiftSummary
  public var segments: [[WireTrackPoint]]
  public var stops: [WireStop]
  /// True when `TrackPart`s follow with more segments.
  public var more: Bool?

  public init(shift: ShiftSummary, segments: [[WireTrackPoint]], stops: [WireStop] = []) {
    self.shift = shift
    self.segments = segments
    self.stops = stops
  }

  public var track: [[WireTrackPoint]] {
    get { segments }
    // In place: a part appended through a copy would copy the whole track each time.
    _modify { yield &segments }
  }
}
