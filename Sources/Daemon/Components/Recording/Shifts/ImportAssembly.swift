import Capture
import ControlProtocol
import DashPilotCore
import FoundationEssentials

/// Gathers a multi-part `import` (the client sends a long track in parts, each under the
/// line limit) per connection until the part with `more: false` arrives. Bounded, so a
/// client that never finishes cannot grow the daemon without end.
struct ImportAssembly {
  /// Points held for all unfinished imports together.
  static let maximumPoints = 2_000_000

  private var pending: [Int: [WireTrackPoint]] = [:]

  enum Outcome {
    case needMore(received: Int)
    case complete([WireTrackPoint])
    case tooLarge
  }

  mutating func add(_ points: [WireTrackPoint], more: Bool, connection: Int) -> Outcome {
    let held = pending.values.reduce(0) { $0 + $1.count }
    guard held + points.count <= Self.maximumPoints else {
      pending[connection] = nil
      return .tooLarge
    }
    pending[connection, default: []].append(contentsOf: points)
    let received = pending[connection]?.count ?? 0
    guard !more else { return .needMore(received: received) }
    let all = pending.removeValue(forKey: connection) ?? []
    return .complete(all)
  }

  /// The refused points by reason, as `ImportResult` carries them.
  static func rejections(_ statistics: CaptureStatistics) -> [String: Int] {
    Dictionary(uniqueKeysWithValues: statistics.rejected.filter { $0.value > 0 }.map { ($0.key.rawValue, $0.value) })
  }

  /// The track's points as the capture rules judge them (`TrackImport`).
  static func points(_ points: [WireTrackPoint]) -> [TrackImport.Point] {
    points.map { point in
      TrackImport.Point(
        time: Date(timeIntervalSince1970: point.time),
        coordinate: GeoCoordinate(latitude: point.lat, longitude: point.lon), accuracy: point.accuracy,
        mode: point.fix.flatMap(TrackImport.Point.mode(gpxFix:)), speed: point.speed)
    }
  }
}
