/// `route load` and `navigate`: the route now followed.
public struct RouteResult: Sendable, Hashable, Codable {
  public var name: String?
  public var mode: WireTravelMode
  public var points: Int
  public var lengthMetres: Double
  /// "file", or the provider that planned it ("valhalla", "osrm").
  public var source: String

  public init(name: String?, mode: WireTravelMode, points: Int, lengthMetres: Double, source: String) {
    self.name = name
    self.mode = mode
    self.points = points
    self.lengthMetres = lengthMetres
    self.source = source
  }

  enum CodingKeys: String, CodingKey {
    case name, mode, points, source
    case lengthMetres = "length_m"
  }
}
