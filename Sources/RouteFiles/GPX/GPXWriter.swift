import DashPilotCore
import FoundationEssentials

/// Writes a track as GPX 1.1: its waypoints (`wpt`, before the track as the schema orders
/// them), then one `trk`, one `trkseg` per continuous segment, so that a gap stays a gap in
/// whatever tool opens the file. Times are `UTCTimestamp`'s (UTC, milliseconds).
public enum GPXWriter {
  public static func document(for track: TimedTrack, creator: String = "dashpilot") -> String {
    var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    out += "<gpx version=\"1.1\" creator=\"\(XMLText.escaped(creator))\" xmlns=\"http://www.topografix.com/GPX/1/1\">\n"
    for waypoint in track.waypoints {
      let coordinate = waypoint.coordinate
      out +=
        "  <wpt lat=\"\(FixedDecimal.shortest(coordinate.latitude))\" lon=\"\(FixedDecimal.shortest(coordinate.longitude))\">"
      if let time = waypoint.time.flatMap({ UTCTimestamp.string($0) }) { out += "<time>\(time)</time>" }
      if let name = waypoint.name { out += "<name>\(XMLText.escaped(name))</name>" }
      if let description = waypoint.description { out += "<desc>\(XMLText.escaped(description))</desc>" }
      out += "</wpt>\n"
    }
    out += "  <trk>\n"
    if let name = track.name { out += "    <name>\(XMLText.escaped(name))</name>\n" }
    for segment in track.segments {
      out += "    <trkseg>\n"
      for point in segment {
        out +=
          "      <trkpt lat=\"\(FixedDecimal.shortest(point.coordinate.latitude))\" lon=\"\(FixedDecimal.shortest(point.coordinate.longitude))\">"
        if let elevation = point.elevation { out += "<ele>\(FixedDecimal.shortest(elevation))</ele>" }
        if let time = UTCTimestamp.string(point.time) { out += "<time>\(time)</time>" }
        if let hdop = point.hdop { out += "<hdop>\(FixedDecimal.shortest(hdop))</hdop>" }
        out += "</trkpt>\n"
      }
      out += "    </trkseg>\n"
    }
    out += "  </trk>\n</gpx>\n"
    return out
  }
}
