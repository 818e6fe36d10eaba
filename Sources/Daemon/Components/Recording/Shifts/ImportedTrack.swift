import ControlProtocol
import DashPilotCore
import FoundationEssentials

/// A track imported from another logger, as the store takes it.
enum ImportedTrack {
  /// The track's positions as samples without a capture session (this box did not
  /// capture them); a point with no accuracy gets 0 m (the import is measured with
  /// inferred continuity and reported partial whatever its accuracy).
  static func samples(_ points: [WireTrackPoint]) -> [RouteSample] {
    points.map { point in
      RouteSample(
        timestamp: Date(timeIntervalSince1970: point.time),
        coordinate: GeoCoordinate(latitude: point.lat, longitude: point.lon),
        horizontalAccuracy: point.accuracy ?? 0, captureSessionID: nil)
    }
  }
}
