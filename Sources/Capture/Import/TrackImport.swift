import DashPilotCore
import FoundationEssentials

/// A track recorded by another logger, judged by the same capture rules as a live fix
/// (`RouteSampleFilter`) with what the file says: its fix type, an error estimate where it
/// gave one (else the assumed accuracy), its speed where it gave one. Never sessions: this
/// box did not capture it, so the measurement infers its continuity and reports it
/// partial. No staleness either: a file has no arrival time. Pure.
public enum TrackImport {
  /// One point as the file gave it.
  public struct Point: Sendable, Hashable {
    public var time: Date
    public var coordinate: GeoCoordinate
    /// Metres (95 %), when the file gave an error estimate.
    public var accuracy: Double?
    /// The fix type, when the file gave one (GPX `fix`: `none` is no fix).
    public var mode: FixCandidate.Mode?
    public var speed: Double?

    public init(
      time: Date, coordinate: GeoCoordinate, accuracy: Double? = nil, mode: FixCandidate.Mode? = nil,
      speed: Double? = nil
    ) {
      self.time = time
      self.coordinate = coordinate
      self.accuracy = accuracy
      self.mode = mode
      self.speed = speed
    }

    /// GPX's fix types; nil for one it does not define.
    public static func mode(gpxFix text: String) -> FixCandidate.Mode? {
      switch text {
      case "none": .noFix
      case "2d": .twoDimensional
      case "3d", "dgps", "pps": .threeDimensional
      default: nil
      }
    }
  }

  /// What was kept and what was refused, by reason.
  public struct Outcome: Sendable, Hashable {
    public var samples: [RouteSample]
    public var statistics: CaptureStatistics
  }

  /// Judges `points` in time order (a file's order is not trusted) with `configuration`.
  public static func judge(_ points: [Point], configuration: RouteSampleFilterConfiguration) -> Outcome {
    // A track file's speeds are its logger's own, course or none.
    var own = configuration
    own.courseLessSpeedsAreComputed = false
    var filter = RouteSampleFilter(configuration: own)
    var statistics = CaptureStatistics()
    var samples: [RouteSample] = []
    let ordered = points.enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }
    for (_, point) in ordered {
      statistics.received += 1
      let candidate = FixCandidate(
        mode: point.mode ?? .threeDimensional, time: point.time, coordinate: point.coordinate, eph: point.accuracy,
        speed: point.speed)
      switch filter.judge(candidate, session: nil) {
      case .rejected(let reason):
        statistics.rejected[reason, default: 0] += 1
      case .accepted(let sample):
        statistics.accepted += 1
        if sample.isHeld { statistics.held += 1 }
        if sample.isAccuracyAssumed { statistics.accuracyAssumed += 1 }
        samples.append(sample)
      }
    }
    return Outcome(samples: samples, statistics: statistics)
  }
}
