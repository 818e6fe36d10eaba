import DashPilotCore
import Foundation

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
    let coordinateProperties = line.properties?["coordinateProperties"] as? [String: Any]
    let times = perLine(coordinateProperties?["times"], lineCount: line.lines.count)
    let hdops = perLine(coordinateProperties?["hdop"], lineCount: line.lines.count)
    var segments: [[TrackPoint]] = []
    var index = 0
    for (lineIndex, positions) in line.lines.enumerated() {
      var segment: [TrackPoint] = []
      for (pointIndex, position) in positions.enumerated() {
        let point = try coordinate(of: position, index: index, file: file)
        let timeValue = element(times, lineIndex, pointIndex)
        guard let timeValue, !(timeValue is NSNull) else {
          throw RouteFileError(file: file, problem: .missingTime(index: index))
        }
        guard let timeText = timeValue as? String, let time = UTCTimestamp.parse(timeText, .logger) else {
          throw RouteFileError(file: file, problem: .badTime(index: index, text: "\(timeValue)"))
        }
        let hdop = element(hdops, lineIndex, pointIndex).flatMap(number)
        segment.append(TrackPoint(coordinate: point.coordinate, time: time, elevation: point.elevation, hdop: hdop))
        index += 1
      }
      if !segment.isEmpty { segments.append(segment) }
    }
    guard index >= 2 else { throw RouteFileError(file: file, problem: .tooFewPoints(index)) }
    let name = line.properties?["name"] as? String
    return TimedTrack(name: name, segments: segments)
  }

  private struct LineFeature {
    var lines: [[Any]]
    var properties: [String: Any]?
  }

  private static let lineTypes: Set<String> = ["LineString", "MultiLineString"]

  private static func lineFeature(in data: Data, file: String) throws(RouteFileError) -> LineFeature {
    let object: Any
    do {
      object = try JSONSerialization.jsonObject(with: data, options: [])
    } catch {
      throw RouteFileError(file: file, problem: .notJSON((error as NSError).localizedDescription))
    }
    guard let root = object as? [String: Any], let type = root["type"] as? String else {
      throw RouteFileError(file: file, problem: .notGeoJSON)
    }
    switch type {
    case "LineString", "MultiLineString":
      return LineFeature(lines: try lines(of: root, file: file), properties: nil)
    case "Feature":
      return try feature(root, file: file)
    case "FeatureCollection":
      let features = root["features"] as? [Any] ?? []
      for case let candidate as [String: Any] in features {
        if let geometry = candidate["geometry"] as? [String: Any], let kind = geometry["type"] as? String,
          lineTypes.contains(kind)
        {
          return try feature(candidate, file: file)
        }
      }
      throw RouteFileError(file: file, problem: .noRouteOrTrack)
    default:
      throw RouteFileError(file: file, problem: .unsupportedGeoJSONType(type))
    }
  }

  private static func feature(_ object: [String: Any], file: String) throws(RouteFileError) -> LineFeature {
    guard let geometry = object["geometry"] as? [String: Any] else {
      throw RouteFileError(file: file, problem: .noRouteOrTrack)
    }
    guard let type = geometry["type"] as? String else { throw RouteFileError(file: file, problem: .notGeoJSON) }
    guard lineTypes.contains(type) else { throw RouteFileError(file: file, problem: .unsupportedGeoJSONType(type)) }
    return LineFeature(lines: try lines(of: geometry, file: file), properties: object["properties"] as? [String: Any])
  }

  private static func lines(of geometry: [String: Any], file: String) throws(RouteFileError) -> [[Any]] {
    let coordinates = geometry["coordinates"] as? [Any] ?? []
    if geometry["type"] as? String == "LineString" { return [coordinates] }
    return coordinates.map { $0 as? [Any] ?? [] }
  }

  private static func perLine(_ value: Any?, lineCount: Int) -> [[Any]]? {
    guard let outer = value as? [Any] else { return nil }
    if lineCount == 1, !outer.isEmpty, !(outer.first is [Any]) { return [outer] }
    return outer.map { $0 as? [Any] ?? [] }
  }

  private static func element(_ table: [[Any]]?, _ line: Int, _ point: Int) -> Any? {
    guard let table, line < table.count, point < table[line].count else { return nil }
    return table[line][point]
  }

  private static func coordinate(
    of position: Any, index: Int, file: String
  ) throws(RouteFileError) -> (coordinate: GeoCoordinate, elevation: Double?) {
    guard let numbers = position as? [Any], numbers.count >= 2,
      let longitude = number(numbers[0]), let latitude = number(numbers[1])
    else { throw RouteFileError(file: file, problem: .unreadableCoordinate(index: index)) }
    let coordinate = GeoCoordinate(latitude: latitude, longitude: longitude)
    guard coordinate.isValid else {
      throw RouteFileError(
        file: file, problem: .coordinateOutOfRange(index: index, latitude: latitude, longitude: longitude))
    }
    return (coordinate, numbers.count >= 3 ? number(numbers[2]) : nil)
  }

  /// JSON numbers only: `true` is an NSNumber too (type code "c"), and must not read as 1.
  /// (`is Bool` cannot tell them apart: on Linux every NSNumber bridges to Bool.)
  private static func number(_ value: Any) -> Double? {
    guard let number = value as? NSNumber, String(cString: number.objCType) != "c" else { return nil }
    return number.doubleValue
  }
}
