import FoundationEssentials

/// A point in a flat frame, in metres east (`x`) and north (`y`) of its reference.
public struct FlatPoint: Sendable, Hashable {
  public var x: Double
  public var y: Double

  public init(x: Double, y: Double) {
    self.x = x
    self.y = y
  }
}

/// An equirectangular frame true at one latitude: a metre east and a metre north are the
/// same length there, so a shift's shape is drawn as driven. Across the few tens of
/// kilometres a shift covers the scale drifts by a fraction of a percent, far below what a
/// drawing shows.
public struct LocalFlatFrame: Sendable, Hashable {
  public let reference: GeoCoordinate
  public let metresPerDegreeNorth: Double
  public let metresPerDegreeEast: Double

  public init(reference: GeoCoordinate) {
    self.reference = reference
    metresPerDegreeNorth = GeographicDistance.earthRadius * .pi / 180
    metresPerDegreeEast = metresPerDegreeNorth * Trigonometry.cos(reference.latitude * .pi / 180)
  }

  @inline(__always) public func project(_ point: GeoCoordinate) -> FlatPoint {
    var dLon = point.longitude - reference.longitude
    // The short way round, so a shift across the antimeridian is not 40,000 km wide.
    if dLon > 180 { dLon -= 360 } else if dLon < -180 { dLon += 360 }
    return FlatPoint(x: dLon * metresPerDegreeEast, y: (point.latitude - reference.latitude) * metresPerDegreeNorth)
  }
}
