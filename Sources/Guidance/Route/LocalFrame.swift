import DashPilotCore
import FoundationEssentials

/// A flat (equirectangular) frame centred on one fix, in metres east and north. Within a few
/// kilometres of the centre its distances are within centimetres of the sphere's at road
/// latitudes, which is far below GPS noise, and a point-to-segment distance in it is three
/// multiplications instead of a dozen trigonometric calls.
struct LocalFrame {
  let originLatitude: Double
  let originLongitude: Double
  let metresPerDegreeNorth: Double
  let metresPerDegreeEast: Double

  init(_ origin: GeoCoordinate) {
    originLatitude = origin.latitude
    originLongitude = origin.longitude
    metresPerDegreeNorth = GeographicDistance.earthRadius * .pi / 180
    metresPerDegreeEast = metresPerDegreeNorth * cos(origin.latitude * .pi / 180)
  }

  @inline(__always) func project(_ point: GeoCoordinate) -> (x: Double, y: Double) {
    var dLon = point.longitude - originLongitude
    // The short way round, so a route across the antimeridian is not 40,000 km wide.
    if dLon > 180 { dLon -= 360 } else if dLon < -180 { dLon += 360 }
    return (dLon * metresPerDegreeEast, (point.latitude - originLatitude) * metresPerDegreeNorth)
  }

  /// The distance from the origin to segment a-b, and where along it (0...1) the nearest point is.
  @inline(__always) static func nearest(
    a: (x: Double, y: Double), b: (x: Double, y: Double)
  ) -> (distance: Double, t: Double) {
    let dx = b.x - a.x
    let dy = b.y - a.y
    let lengthSquared = dx * dx + dy * dy
    var t = 0.0
    if lengthSquared > 0 {
      t = min(1, max(0, -(a.x * dx + a.y * dy) / lengthSquared))
    }
    // At t = 1 the end itself, not a + (b - a), which can differ in the last bit and make the
    // shared vertex of two segments two different distances.
    let px = t == 1 ? b.x : a.x + t * dx
    let py = t == 1 ? b.y : a.y + t * dy
    return ((px * px + py * py).squareRoot(), t)
  }
}
