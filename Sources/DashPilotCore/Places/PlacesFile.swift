import FoundationEssentials

/// Reads the places file: a GeoJSON (RFC 7946) FeatureCollection, one Feature a place.
///
/// - geometry: a `Point` with `properties.radius_m` (metres), a `Polygon` or a
///   `MultiPolygon` (positions `[longitude, latitude]`, rings closed, holes allowed);
/// - `properties.name`: a non-empty string, each place's own;
/// - `properties.kind`: one of `Place.Kind` (`depot`, `customer`, `fuel`, `rest`, `private`,
///   `other`).
///
/// Anything else is refused with the file, the feature and what is wrong with it: a places
/// file that says something other than what was meant (a home whose kind is misspelt) must
/// stop start-up rather than record a position it should not. Pure: the caller reads the
/// file; other properties are the fleet's and are ignored.
public enum PlacesFile {
  /// Ten kilometres: a place is a yard or a street, and a radius larger than a town is a
  /// unit mistaken (kilometres given as metres the other way round would be 0.05).
  public static let maximumRadius: Double = 10_000

  public static func places(from data: some Collection<UInt8>, file: String) throws(PlacesFileError) -> [Place] {
    let document: JSONValue
    do {
      document = try JSONDecoder().decode(JSONValue.self, from: Data(data))
    } catch {
      throw PlacesFileError(file: file, problem: .notJSON(reason(error)))
    }
    guard document["type"]?.stringValue == "FeatureCollection", let features = document["features"]?.arrayValue
    else {
      throw PlacesFileError(file: file, problem: .notFeatureCollection(document["type"]?.stringValue))
    }
    var places: [Place] = []
    var names: Set<String> = []
    for (index, feature) in features.enumerated() {
      let name = feature["properties"]?["name"]?.stringValue
      func refuse(_ problem: PlacesFileError.Problem) -> PlacesFileError {
        PlacesFileError(file: file, feature: index + 1, name: name.flatMap { $0.isEmpty ? nil : $0 }, problem: problem)
      }
      guard feature["type"]?.stringValue == "Feature" else { throw refuse(.notAFeature) }
      guard let name, !name.isEmpty else { throw refuse(.missingName) }
      guard names.insert(name).inserted else { throw refuse(.duplicateName) }
      guard let kindText = feature["properties"]?["kind"]?.stringValue else { throw refuse(.missingKind) }
      guard let kind = Place.Kind(rawValue: kindText) else { throw refuse(.unknownKind(kindText)) }
      let area: PlaceArea
      do throws(PlacesFileError.Problem) {
        area = try Self.area(of: feature["geometry"], radius: feature["properties"]?["radius_m"])
      } catch {
        throw refuse(error)
      }
      places.append(Place(name: name, kind: kind, area: area))
    }
    return places
  }

  private static func area(of geometry: JSONValue?, radius: JSONValue?) throws(PlacesFileError.Problem) -> PlaceArea {
    guard let geometry, geometry != .null, let type = geometry["type"]?.stringValue else {
      throw .missingGeometry
    }
    let coordinates = geometry["coordinates"]
    switch type {
    case "Point":
      let centre = try position(coordinates, "the Point")
      guard let metres = radius?.numberValue, metres > 0, metres <= maximumRadius else { throw .badRadius }
      return .circle(centre: centre, radius: metres)
    case "Polygon":
      guard radius == nil else { throw .radiusOnArea }
      return .polygons([try polygon(coordinates, "the Polygon")])
    case "MultiPolygon":
      guard radius == nil else { throw .radiusOnArea }
      guard let polygons = coordinates?.arrayValue, !polygons.isEmpty else {
        throw .badRing("the MultiPolygon holds no polygon")
      }
      var areas: [[[GeoCoordinate]]] = []
      for (index, polygon) in polygons.enumerated() {
        areas.append(try Self.polygon(polygon, "polygon \(index + 1)"))
      }
      return .polygons(areas)
    default:
      throw .unsupportedGeometry(type)
    }
  }

  /// A polygon's rings: at least four positions each, closed, enclosing some area.
  private static func polygon(_ value: JSONValue?, _ what: String) throws(PlacesFileError.Problem)
    -> [[GeoCoordinate]]
  {
    guard let rings = value?.arrayValue, !rings.isEmpty else { throw .badRing("\(what) has no ring") }
    var result: [[GeoCoordinate]] = []
    for (ringIndex, ring) in rings.enumerated() {
      let label = rings.count == 1 ? what : "ring \(ringIndex + 1) of \(what)"
      guard let positions = ring.arrayValue, positions.count >= 4 else {
        throw .badRing("\(label) has fewer than the four positions a closed ring needs")
      }
      var points: [GeoCoordinate] = []
      for (index, position) in positions.enumerated() {
        points.append(try Self.position(position, "position \(index + 1) of \(label)"))
      }
      guard points.first == points.last else {
        throw .badRing("\(label) is not closed (its last position must repeat its first)")
      }
      guard let first = points.first, PlaceArea.shoelace(points.map(LocalFlatFrame(reference: first).project)) > 0
      else { throw .badRing("\(label) encloses no area") }
      result.append(points)
    }
    return result
  }

  private static func position(_ value: JSONValue?, _ what: String) throws(PlacesFileError.Problem) -> GeoCoordinate {
    guard let numbers = value?.arrayValue, numbers.count >= 2, let longitude = numbers[0].numberValue,
      let latitude = numbers[1].numberValue
    else { throw .badPosition(what) }
    let coordinate = GeoCoordinate(latitude: latitude, longitude: longitude)
    guard coordinate.isValid else { throw .badPosition(what) }
    return coordinate
  }

  /// The parser's reason in a few words.
  private static func reason(_ error: Error) -> String {
    if let decoding = error as? DecodingError, case .dataCorrupted(let context) = decoding {
      let underlying = context.underlyingError.map { " \($0)" } ?? ""
      return context.debugDescription + underlying
    }
    return "\(error)"
  }
}
