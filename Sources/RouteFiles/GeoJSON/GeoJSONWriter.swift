import DashPilotCore
import FoundationEssentials

/// Writes a track as one GeoJSON Feature: a `MultiLineString` with one line per continuous
/// segment (gaps stay gaps), times in `properties.coordinateProperties.times` (one list per
/// line, `UTCTimestamp`'s), HDOP beside them when any point has one, elevation as the third
/// number of a position. Written by hand so numbers read back as the same Doubles.
public enum GeoJSONWriter {
  public static func document(for track: TimedTrack) -> String {
    var properties: [String] = []
    if let name = track.name { properties.append("\"name\":\(JSONText.string(name))") }
    let times = track.segments.map {
      "[" + $0.map { UTCTimestamp.string($0.time).map(JSONText.string) ?? "null" }.joined(separator: ",") + "]"
    }
    var coordinateProperties = ["\"times\":[" + times.joined(separator: ",") + "]"]
    if track.segments.contains(where: { $0.contains { $0.hdop != nil } }) {
      let hdops = track.segments.map {
        "[" + $0.map { $0.hdop.map(FixedDecimal.shortest) ?? "null" }.joined(separator: ",") + "]"
      }
      coordinateProperties.append("\"hdop\":[" + hdops.joined(separator: ",") + "]")
    }
    properties.append("\"coordinateProperties\":{" + coordinateProperties.joined(separator: ",") + "}")
    let lines = track.segments.map { segment in
      "["
        + segment.map { point in
          var numbers = [
            FixedDecimal.shortest(point.coordinate.longitude), FixedDecimal.shortest(point.coordinate.latitude),
          ]
          if let elevation = point.elevation { numbers.append(FixedDecimal.shortest(elevation)) }
          return "[" + numbers.joined(separator: ",") + "]"
        }.joined(separator: ",") + "]"
    }
    return "{\"type\":\"Feature\",\"properties\":{" + properties.joined(separator: ",")
      + "},\"geometry\":{\"type\":\"MultiLineString\",\"coordinates\":[" + lines.joined(separator: ",") + "]}}\n"
  }
}
