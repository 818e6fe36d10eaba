import FoundationEssentials

/// The one way two positions are measured, by the filter and the calculator alike:
/// haversine on a sphere. An ellipsoid would be marginally more precise, but the
/// difference is far smaller than the error already in the positions.
public enum GeographicDistance {
  /// The mean Earth radius (IUGG), in metres.
  public static let earthRadius: Double = 6_371_008.8

  /// Great-circle distance in metres.
  public static func metres(from a: GeoCoordinate, to b: GeoCoordinate) -> Double {
    metres(from: a, cosineOfLatitude: cosineOfLatitude(a), to: b).metres
  }

  /// `metres(from:to:)` given the cosine of `a`'s latitude (`cosineOfLatitude(a)`), with
  /// the cosine of `b`'s it computed: a walk measures each position against the next, so
  /// each cosine serves two steps. The same arithmetic, so the same figure to the bit.
  @inline(__always)
  public static func metres(
    from a: GeoCoordinate, cosineOfLatitude cosineA: Double, to b: GeoCoordinate
  ) -> (metres: Double, cosineOfLatitudeB: Double) {
    let phi1 = radians(a.latitude)
    let phi2 = radians(b.latitude)
    let cosineB = Trigonometry.cos(phi2)
    let dPhi = phi2 - phi1
    let dLambda = radians(b.longitude - a.longitude)
    let sinHalfDPhi = Trigonometry.sin(dPhi / 2)
    let sinHalfDLambda = Trigonometry.sin(dLambda / 2)
    let h = sinHalfDPhi * sinHalfDPhi + cosineA * cosineB * sinHalfDLambda * sinHalfDLambda
    return (2 * earthRadius * Trigonometry.asin(min(1, h.squareRoot())), cosineB)
  }

  @inline(__always)
  public static func cosineOfLatitude(_ a: GeoCoordinate) -> Double { Trigonometry.cos(radians(a.latitude)) }

  /// Initial bearing from `a` towards `b`, in degrees clockwise from true north, 0..<360.
  public static func initialBearing(from a: GeoCoordinate, to b: GeoCoordinate) -> Double {
    let phi1 = radians(a.latitude)
    let phi2 = radians(b.latitude)
    let dLambda = radians(b.longitude - a.longitude)
    let y = Trigonometry.sin(dLambda) * Trigonometry.cos(phi2)
    let x =
      Trigonometry.cos(phi1) * Trigonometry.sin(phi2) - Trigonometry.sin(phi1) * Trigonometry.cos(phi2)
      * Trigonometry.cos(dLambda)
    return normalizedDegrees(degrees(Trigonometry.atan2(y, x)))
  }

  /// The position reached from `origin` after `distance` metres on `bearing` degrees.
  public static func destination(
    from origin: GeoCoordinate, bearing: Double, distance: Double
  ) -> GeoCoordinate {
    let delta = distance / earthRadius
    let theta = radians(bearing)
    let phi1 = radians(origin.latitude)
    let lambda1 = radians(origin.longitude)
    let phi2 = Trigonometry.asin(
      Trigonometry.sin(phi1) * Trigonometry.cos(delta) + Trigonometry.cos(phi1) * Trigonometry.sin(delta)
        * Trigonometry.cos(theta))
    let lambda2 =
      lambda1
      + Trigonometry.atan2(
        Trigonometry.sin(theta) * Trigonometry.sin(delta) * Trigonometry.cos(phi1),
        Trigonometry.cos(delta) - Trigonometry.sin(phi1) * Trigonometry.sin(phi2))
    var longitude = degrees(lambda2)
    if longitude > 180 { longitude -= 360 }
    if longitude < -180 { longitude += 360 }
    return GeoCoordinate(latitude: degrees(phi2), longitude: longitude)
  }

  /// The smaller angle between two bearings, 0...180 degrees.
  public static func angleBetween(_ a: Double, _ b: Double) -> Double {
    let d = abs(normalizedDegrees(a) - normalizedDegrees(b))
    return d > 180 ? 360 - d : d
  }

  public static func normalizedDegrees(_ value: Double) -> Double {
    let r = value.truncatingRemainder(dividingBy: 360)
    return r < 0 ? r + 360 : r
  }

  @inline(__always) static func radians(_ d: Double) -> Double { d * .pi / 180 }
  @inline(__always) static func degrees(_ r: Double) -> Double { r * 180 / .pi }
}
