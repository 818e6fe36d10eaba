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
