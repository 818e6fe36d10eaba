import DashPilotCore

/// A position on the wire, in degrees.
public struct WireCoordinate: Sendable, Hashable, Codable {
  public var lat: Double
  public var lon: Double

  public init(lat: Double, lon: Double) {
    self.lat = lat
    self.lon = lon
  }

  var jsonValue: JSONValue { .object(["lat": .number(lat), "lon": .number(lon)]) }
}
