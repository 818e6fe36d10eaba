import DashPilotCore
import Foundation
import Guidance

/// Real geometry for the guidance tests: routes along a parallel (so "north of the route" is
/// exact), and fixes placed a given distance north of a given point along them.
enum Geometry {
  static let latitude = 51.5
  static let longitude = -0.12
  static let epoch = Date(timeIntervalSince1970: 1_700_000_000)
  static let metresPerDegreeNorth = GeographicDistance.earthRadius * .pi / 180
  static let metresPerDegreeEast = metresPerDegreeNorth * cos(latitude * .pi / 180)

  /// Points every `spacing` metres due east along the parallel, `length` metres in all.
  static func eastRoute(length: Double = 5000, spacing: Double = 50) -> [GeoCoordinate] {
    let count = Int((length / spacing).rounded())
    return (0...count).map { point(along: Double($0) * spacing) }
  }

  static func straightRoute(length: Double = 5000, spacing: Double = 50) throws -> GuidanceRoute {
    try GuidanceRoute(eastRoute(length: length, spacing: spacing))
  }

  /// The point `along` metres east of the route's start, `lateral` metres north of it.
  static func point(along: Double, lateral: Double = 0) -> GeoCoordinate {
    GeoCoordinate(
      latitude: latitude + lateral / metresPerDegreeNorth,
      longitude: longitude + along / metresPerDegreeEast)
  }

  static func time(_ seconds: Double) -> Date { epoch.addingTimeInterval(seconds) }

  static func fix(
    along: Double, lateral: Double, accuracy: Double = 5, time seconds: Double,
    speed: Double? = nil, course: Double? = nil
  ) -> GuidanceFix {
    GuidanceFix(
      timestamp: time(seconds), coordinate: point(along: along, lateral: lateral),
      accuracy: accuracy, speed: speed, course: course)
  }
}

/// A sample of the seed's sketch: how far off, how sure, when.
struct Sample {
  var lateral: Double
  var accuracy: Double
  var time: Double

  init(_ lateral: Double, _ accuracy: Double, _ time: Double) {
    self.lateral = lateral
    self.accuracy = accuracy
    self.time = time
  }
}

/// What one run of the real engine over a trace showed.
struct TraceResult: Equatable {
  var joined: Bool
  var offRouteAt: [Double]
}

/// Runs samples through a real engine on a 5 km straight route: the car starts 1000 m along
/// and moves on 10 m per second, each fix placed `lateral` metres north of where it is.
func runTrace(_ samples: [Sample], config: GuidanceConfig = .driving) throws -> TraceResult {
  var engine = GuidanceEngine(route: try Geometry.straightRoute(), config: config)
  var fired: [Double] = []
  for sample in samples {
    let fix = Geometry.fix(
      along: 1000 + 10 * sample.time, lateral: sample.lateral, accuracy: sample.accuracy,
      time: sample.time)
    for event in engine.update(fix) {
      if case .offRoute = event { fired.append(sample.time) }
    }
  }
  return TraceResult(joined: engine.hasJoined, offRouteAt: fired)
}

extension GuidanceEvent {
  var isProgress: Bool {
    if case .progress = self { return true }
    return false
  }
}
