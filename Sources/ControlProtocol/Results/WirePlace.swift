import DashPilotCore
import FoundationEssentials

/// One place on the wire (`report`'s `places`): its name and kind as the places file gives
/// them, and where it is: a circle (`lat`, `lon`, `radius_m`; `polygons` null) or polygons
/// (each its rings, the outer boundary first, each ring `[lon, lat]` positions as GeoJSON
/// writes them; the circle's members null).
public struct WirePlace: Sendable, Hashable, Codable {
  public var name: String
  public var kind: String
  @ExplicitNull public var lat: Double?
  @ExplicitNull public var lon: Double?
  @ExplicitNull public var radiusMetres: Double?
  @ExplicitNull public var polygons: [[[[Double]]]]?

  public init(_ place: Place) {
    name = place.name
    kind = place.kind.rawValue
    switch place.area {
    case .circle(let centre, let radius):
      lat = centre.latitude
      lon = centre.longitude
      radiusMetres = radius
    case .polygons(let polygons):
      self.polygons = polygons.map { rings in rings.map { ring in ring.map { [$0.longitude, $0.latitude] } } }
    }
  }

  /// Where the place is, read back; nil for a shape the wire cannot carry (a position
  /// without both its numbers).
  public var area: PlaceArea? {
    if let lat, let lon, let radiusMetres {
      return .circle(centre: GeoCoordinate(latitude: lat, longitude: lon), radius: radiusMetres)
    }
    guard let polygons else { return nil }
    var read: [[[GeoCoordinate]]] = []
    for rings in polygons {
      var ringsRead: [[GeoCoordinate]] = []
      for ring in rings {
        guard ring.allSatisfy({ $0.count >= 2 }) else { return nil }
        ringsRead.append(ring.map { GeoCoordinate(latitude: $0[1], longitude: $0[0]) })
      }
      read.append(ringsRead)
    }
    return .polygons(read)
  }

  enum CodingKeys: String, CodingKey {
    case name, kind, lat, lon, polygons
    case radiusMetres = "radius_m"
  }
}
