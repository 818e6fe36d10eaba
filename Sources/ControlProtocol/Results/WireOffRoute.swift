import FoundationEssentials

/// One confirmed departure from a route: when, where, and how far from the route guidance
/// judged the fix that confirmed it (null when it matched no part of the route at all).
public struct WireOffRoute: Sendable, Hashable, Codable {
  public var time: Date
  public var lat: Double
  public var lon: Double
  public var lateralMetres: Double?

  public init(time: Date, lat: Double, lon: Double, lateralMetres: Double?) {
    self.time = time
    self.lat = lat
    self.lon = lon
    self.lateralMetres = lateralMetres
  }

  enum CodingKeys: String, CodingKey {
    case time, lat, lon
    case lateralMetres = "lateral_m"
  }
}
