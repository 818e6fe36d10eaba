/// A position on the Earth in degrees (WGS 84 as gpsd reports it).
public struct GeoCoordinate: Sendable, Hashable, Codable {
  public var latitude: Double
  public var longitude: Double

  public init(latitude: Double, longitude: Double) {
    self.latitude = latitude
    self.longitude = longitude
  }

  /// Whether the coordinate could describe somewhere on Earth: finite, latitude within
  /// ±90 and longitude within ±180.
  public var isValid: Bool {
    latitude.isFinite && longitude.isFinite && abs(latitude) <= 90 && abs(longitude) <= 180
  }
}
