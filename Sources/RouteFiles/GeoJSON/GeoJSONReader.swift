import DashPilotCore
import FoundationEssentials

/// Reads routes and timed tracks out of GeoJSON (RFC 7946): positions are `[longitude,
/// latitude, elevation?]`. A track's times are read from the Feature's
/// `properties.coordinateProperties.times`, the convention `togeojson` and our writer share.
public enum GeoJSONReader {
  /// A `LineString`, a `MultiLineString` (its lines joined in order, a junction point shared
  /// by two lines kept once), or a Feature / FeatureCollection whose first line geometry is one.
  public static func route(from data: Data, file: String) throws(RouteFileError) -> [GeoCoordinate] {
    let line = try lineFeature(in: data, file: file)
    var coordinates: [GeoCoordinate] = []
    var index = 0
    for (lineIndex, positions) in line.lines.enumerated() {
      for (pointIndex, position) in positions.enumerated() {
        let point = try coordinate(of: position, index: index, file: file)
        index += 1
        let isSharedJunction = lineIndex > 0 && pointIndex == 0 && coordinates.last == point.coordinate
        if !isSharedJunction { coordinates.append(point.coordinate) }
      }
    }
    guard coordinates.count >= 2 else { throw RouteFileError(file: file, problem: .tooFewPoints(coordinates.count)) }
    return coordinates
  }

  /// A recorded track: each line of a `MultiLineString` is a segment (a `LineString` is one),
  /// with a time for every position. Point indexes in errors count from 0 across all lines.
  public static func track(from data: Data, file: String) throws(RouteFileError) -> TimedTrack {
    let line = try lineFeature(in: data, file: file)
    let coordinateProperties = line.properties?["coordinateProperties"]
    let times = perLine(coordinateProperties?["times"], lineCount: line.lines.count)
    let hdops = perLine(coordinateProperties?["hdop"], lineCount: line.lines.count)
    var segments: [[TrackPoint]] = []
    var index = 0
    for (lineIndex, positions) in line.lines.enumerated() {
      var segment: [TrackPoint] = []
      for (pointIndex, position) in positions.enumerated() {
        let point = try coordinate(of: position, index: index, file: file)
        let timeValue = element(times, lineIndex, pointIndex)
        guard let timeValue, timeValue != .null else {
          throw RouteFileError(file: file, problem: .missingTime(index: index))
        }
        guard let timeText = timeValue.stringValue, let time = UTCTimestamp.parse(timeText, .logger) else {
          throw RouteFileError(file: file, problem: .badTime(index: index, text: written(timeValue)))
        }
        let hdop = element(hdops, lineIndex, pointIndex)?.numberValue
        segment.append(TrackPoint(coordinate: point.coordinate, time: time, elevation: point.elevation, hdop: hdop))
        index += 1
      }
      if !segment.isEmpty { segments.append(segment) }
    }
    guard index >= 2 else { throw RouteFileError(file: file, problem: .tooFewPoints(index)) }
    let name = line.properties?["name"]?.stringValue
    return TimedTrack(name: name, segments: segments)
  }

  private struct LineFeature {
    var lines: [[JSONValue]]
    var properties: JSONValue?
  }

  private static let lineTypes: Set<String> = ["LineString", "MultiLineString"]

  private static func lineFeature(in data: Data, file: String) throws(RouteFileError) -> LineFeature {
    let root: JSONValue
    do {
      root = try JSONDecoder().decode(JSONValue.self, from: data)
    } catch {
      throw RouteFileError(file: file, problem: .notJSON(reason(error)))
    }
    guard let type = root["type"]?.stringValue else { throw RouteFileError(file: file, problem: .notGeoJSON) }
    switch type {
    case "LineString", "MultiLineString":
      return LineFeature(lines: lines(of: root), properties: nil)
    case "Feature":
      return try feature(root, file: file)
    case "FeatureCollection":
      for candidate in root["features"]?.arrayValue ?? [] {
        if let kind = candidate["geometry"]?["type"]?.stringValue, lineTypes.contains(kind) {
          return try feature(candidate, file: file)
        }
      }
      throw RouteFileError(file: file, problem: .noRouteOrTrack)
    default:
      throw RouteFileError(file: file, problem: .unsupportedGeoJSONType(type))
    }
  }

  /// The decoder's complaint, in words that follow "is not JSON".
  private static func reason(_ error: Error) -> String {
    switch error {
    case DecodingError.dataCorrupted(let context) where context.codingPath.isEmpty: "malformed"
    case DecodingError.typeMismatch(_, let context), DecodingError.dataCorrupted(let context):
      "unreadable value at "
        + context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }
        .joined(separator: ".")
    default: "\(error)"
    }
  }

  private static func feature(_ object: JSONValue, file: String) throws(RouteFileError) -> LineFeature {
    guard let geometry = object["geometry"], case .object = geometry else {
      throw RouteFileError(file: file, problem: .noRouteOrTrack)
    }
    guard let type = geometry["type"]?.stringValue else { throw RouteFileError(file: file, problem: .notGeoJSON) }
    guard lineTypes.contains(type) else { throw RouteFileError(file: file, problem: .unsupportedGeoJSONType(type)) }
    let properties = object["properties"].flatMap { properties -> JSONValue? in
      guard case .object = properties else { return nil }
      return properties
    }
    return LineFeature(lines: lines(of: geometry), properties: properties)
  }

  private static func lines(of geometry: JSONValue) -> [[JSONValue]] {
    let coordinates = geometry["coordinates"]?.arrayValue ?? []
    if geometry["type"]?.stringValue == "LineString" { return [coordinates] }
    return coordinates.map { $0.arrayValue ?? [] }
  }

  private static func perLine(_ value: JSONValue?, lineCount: Int) -> [[JSONValue]]? {
    guard let outer = value?.arrayValue else { return nil }
    if lineCount == 1, let first = outer.first, first.arrayValue == nil { return [outer] }
    return outer.map { $0.arrayValue ?? [] }
  }

  /// A time that is not a readable one, as the file wrote it: a string's own text, any
  /// other value as JSON.
  private static func written(_ value: JSONValue) -> String {
    switch value {
    case .string(let text): text
    case .number(let number): FixedDecimal.shortest(number)
    default: (try? JSONEncoder().encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "?"
    }
  }

  private static func element(_ table: [[JSONValue]]?, _ line: Int, _ point: Int) -> JSONValue? {
    guard let table, line < table.count, point < table[line].count else { return nil }
    return table[line][point]
  }

  private static func coordinate(
    of position: JSONValue, index: Int, file: String
  ) throws(RouteFileError) -> (coordinate: GeoCoordinate, elevation: Double?) {
    guard let numbers = position.arrayValue, numbers.count >= 2,
      let longitude = numbers[0].numberValue, let latitude = numbers[1].numberValue
    else { throw RouteFileError(file: file, problem: .unreadableCoordinate(index: index)) }
    let coordinate = GeoCoordinate(latitude: latitude, longitude: longitude)
    guard coordinate.isValid else {
      throw RouteFileError(
        file: file, problem: .coordinateOutOfRange(index: index, latitude: latitude, longitude: longitude))
    }
    return (coordinate, numbers.count >= 3 ? numbers[2].numberValue : nil)
  }
}
