/// Why a route or track file could not be read. The message names the file and the problem,
/// because the person who sees it is at a terminal with the file in front of them.
public struct RouteFileError: Error, Sendable, Hashable, CustomStringConvertible {
  public enum Problem: Sendable, Hashable {
    /// The file could not be opened or read; the system's reason.
    case unreadable(String)
    /// Neither `.gpx` nor `.geojson`/`.json`, and the first character says neither either.
    case unknownFormat
    /// The parser's reason and line.
    case notXML(String)
    case notGPX(rootElement: String)
    /// A DTD that declares an entity (`<!ENTITY name …>`): refused before it is used, so
    /// that no text can expand without bound or read another file.
    case declaresEntity(String)
    case notJSON(String)
    case noRouteOrTrack
    case tooFewPoints(Int)
    /// A point whose `lat`/`lon` (or GeoJSON position) is missing or not a number.
    case unreadableCoordinate(index: Int)
    case coordinateOutOfRange(index: Int, latitude: Double, longitude: Double)
    case unsupportedGeoJSONType(String)
    /// JSON, but without the `type` member every GeoJSON object has.
    case notGeoJSON
    case missingTime(index: Int)
    case badTime(index: Int, text: String)
  }

  /// The file as the caller named it.
  public var file: String
  public var problem: Problem

  public init(file: String, problem: Problem) {
    self.file = file
    self.problem = problem
  }

  public var description: String { "\(file): \(problemText)" }

  private var problemText: String {
    switch problem {
    case .unreadable(let reason): "cannot be read (\(reason))"
    case .unknownFormat: "is neither GPX nor GeoJSON"
    case .notXML(let reason): "is not XML (\(reason))"
    case .notGPX(let root): "is XML but not GPX (its root element is <\(root)>, not <gpx>)"
    case .declaresEntity(let name):
      "declares the entity \"\(name)\" (<!ENTITY>); a route file is read without entities, which could expand without bound or read other files"
    case .notJSON(let reason): "is not JSON (\(reason))"
    case .noRouteOrTrack: "holds no route or track"
    case .tooFewPoints(let count):
      "holds \(count) point\(count == 1 ? "" : "s"); a route or track needs at least two"
    case .unreadableCoordinate(let index): "point \(index) has no readable latitude and longitude"
    case .coordinateOutOfRange(let index, let latitude, let longitude):
      "point \(index) is not on Earth (latitude \(latitude), longitude \(longitude))"
    case .unsupportedGeoJSONType(let type):
      "GeoJSON type \"\(type)\" is not a route (expected LineString, MultiLineString, or a Feature or FeatureCollection holding one)"
    case .notGeoJSON: "is JSON but not GeoJSON (it has no \"type\")"
    case .missingTime(let index): "point \(index) has no time"
    case .badTime(let index, let text):
      "point \(index) has an unreadable time \"\(text)\" (expected ISO 8601, e.g. 2026-11-29T21:30:00Z)"
    }
  }
}
