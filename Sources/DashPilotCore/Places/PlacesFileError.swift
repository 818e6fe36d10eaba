/// Why a places file was refused. The message names the file, the feature (counting from
/// 1, with its name when it has one) and what is wrong with it, because the person who sees
/// it (in the journal at start-up, or in a fleet command's reply) must find the line to mend.
public struct PlacesFileError: Error, Sendable, Hashable, CustomStringConvertible {
  public enum Problem: Error, Sendable, Hashable {
    /// A places file named in the configuration (or a command) is not there.
    case missing
    /// The file is larger than the most a places file may be (bytes): start-up reads a
    /// bounded amount whatever is on the card.
    case tooLarge(Int)
    /// The file could not be read; the system's reason.
    case unreadable(String)
    /// The JSON parser's reason.
    case notJSON(String)
    /// The document is not a FeatureCollection (its `type`, if any).
    case notFeatureCollection(String?)
    /// A member of `features` that is not a Feature object.
    case notAFeature
    case missingGeometry
    case unsupportedGeometry(String)
    case missingName
    case duplicateName
    case missingKind
    case unknownKind(String)
    /// A Point without a `radius_m`, or one that is not a positive number of metres up to the limit.
    case badRadius
    /// A polygon given a `radius_m`: its boundary is its size.
    case radiusOnArea
    /// A position that is not `[longitude, latitude]` on Earth (its place in the geometry).
    case badPosition(String)
    /// A ring with fewer than four positions, not closed, or enclosing nothing.
    case badRing(String)
  }

  /// The file as the caller named it.
  public var file: String
  /// The feature the problem is in, counting from 1; nil for the document as a whole.
  public var feature: Int?
  /// The feature's name, when it has one.
  public var name: String?
  public var problem: Problem

  public init(file: String, feature: Int? = nil, name: String? = nil, problem: Problem) {
    self.file = file
    self.feature = feature
    self.name = name
    self.problem = problem
  }

  /// "/etc/dashpilot/places.geojson: feature 3 ("Depot"): a Point needs radius_m, ...".
  public var description: String {
    var head = file
    if let feature {
      head += ": feature \(feature)"
      if let name { head += " (\"\(name)\")" }
    }
    return "\(head): \(problemText)"
  }

  private var problemText: String {
    let kinds = Place.Kind.allCases.map(\.rawValue).joined(separator: ", ")
    switch problem {
    case .missing: return "does not exist"
    case .tooLarge(let limit): return "is larger than \(limit / 1_048_576) MiB, the most a places file may be"
    case .unreadable(let reason): return "cannot be read (\(reason))"
    case .notJSON(let reason): return "is not JSON (\(reason))"
    case .notFeatureCollection(let type):
      return "is not a GeoJSON FeatureCollection of places (its type is \(type.map { "\"\($0)\"" } ?? "missing"))"
    case .notAFeature: return "is not a GeoJSON Feature"
    case .missingGeometry: return "has no geometry (a Point with radius_m, a Polygon or a MultiPolygon)"
    case .unsupportedGeometry(let type):
      return "has a \(type) geometry; a place is a Point with radius_m, a Polygon or a MultiPolygon"
    case .missingName: return "has no name (properties.name, a non-empty string)"
    case .duplicateName: return "has a name an earlier feature has: each place's name is its own"
    case .missingKind: return "has no kind (properties.kind: one of \(kinds))"
    case .unknownKind(let kind): return "has kind \"\(kind)\", which is none of \(kinds)"
    case .badRadius:
      return "a Point needs properties.radius_m, the place's radius in metres (more than 0, at most "
        + "\(Int(PlacesFile.maximumRadius)))"
    case .radiusOnArea: return "a polygon takes no radius_m: its boundary is the place"
    case .badPosition(let where_): return "\(where_) is not [longitude, latitude] on Earth"
    case .badRing(let reason): return reason
    }
  }
}
