import DashPilotCore
import FoundationEssentials

/// One recorded position of a track: what GPX keeps of a fix.
public struct TrackPoint: Sendable, Hashable {
  public var coordinate: GeoCoordinate
  public var time: Date
  /// Metres above the geoid (GPX `ele`), when the logger wrote it.
  public var elevation: Double?
  /// Horizontal dilution of precision, when the logger wrote it; turning it into metres is
  /// the importer's decision, not the file's.
  public var hdop: Double?
  /// The logger's fix type (GPX `fix`: none, 2d, 3d, dgps, pps), when it wrote one.
  public var fix: String?
  /// Ground speed in m/s (GPX 1.0 `speed`), when the logger wrote it.
  public var speed: Double?

  public init(
    coordinate: GeoCoordinate, time: Date, elevation: Double? = nil, hdop: Double? = nil, fix: String? = nil,
    speed: Double? = nil
  ) {
    self.coordinate = coordinate
    self.time = time
    self.elevation = elevation
    self.hdop = hdop
    self.fix = fix
    self.speed = speed
  }
}

/// A track as continuous segments: a break between segments is a gap the logger saw (or,
/// on export, one the measurement found), so it is never joined into one line.
public struct TimedTrack: Sendable, Hashable {
  public var name: String?
  /// Each segment holds at least one point; empty segments are dropped on reading.
  public var segments: [[TrackPoint]]
  /// The named points beside it (an exported shift's stops); import does not use them.
  public var waypoints: [Waypoint]

  public init(name: String? = nil, segments: [[TrackPoint]], waypoints: [Waypoint] = []) {
    self.name = name
    self.segments = segments
    self.waypoints = waypoints
  }

  public var pointCount: Int { segments.reduce(0) { $0 + $1.count } }
}
