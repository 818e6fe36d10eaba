import Capture
import ControlProtocol
import DashPilotCore
import FoundationEssentials

/// A track imported from another logger, as the capture rules judge it (`TrackImport`).
enum ImportedTrack {
  /// The track's points with what the file said of each: fix type, accuracy, speed.
  static func points(_ points: [WireTrackPoint]) -> [TrackImport.Point] {
    points.map { point in
      TrackImport.Point(
        time: Date(timeIntervalSince1970: point.time),
        coordinate: GeoCoordinate(latitude: point.lat, longitude: point.lon), accuracy: point.accuracy,
        mode: point.fix.flatMap(TrackImport.Point.mode(gpxFix:)), speed: point.speed)
    }
  }

  /// The refused points by reason, as `ImportResult` carries them.
  static func rejections(_ statistics: CaptureStatistics) -> [String: Int] {
    Dictionary(uniqueKeysWithValues: statistics.rejected.filter { $0.value > 0 }.map { ($0.key.rawValue, $0.value) })
  }
}
