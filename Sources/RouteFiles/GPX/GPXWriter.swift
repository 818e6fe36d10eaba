import DashPilotCore
import Foundation

/// Writes a track as GPX 1.1: one `trk`, one `trkseg` per continuous segment, so that a gap
/// stays a gap in whatever tool opens the file. Times are `UTCTimestamp`'s (UTC, milliseconds).
public enum GPXWriter {
  public static func document(for track: TimedTrack, creator: String = "dashpilot") -> String {
    var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    out += "<gpx version=\"1.1\" creator=\"\(escape(creator))\" xmlns=\"http://www.topografix.com/GPX/1/1\">\n"
    out += "  <trk>\n"
    if let name = track.name { out += "    <name>\(escape(name))</name>\n" }
    for segment in track.segments {
      out += "    <trkseg>\n"
      for point in segment {
        out +=
          "      <trkpt lat=\"\(DecimalText.of(point.coordinate.latitude))\" lon=\"\(DecimalText.of(point.coordinate.longitude))\">"
        if let elevation = point.elevation { out += "<ele>\(DecimalText.of(elevation))</ele>" }
        if let time = UTCTimestamp.string(point.time) { out += "<time>\(time)</time>" }
        if let hdop = point.hdop { out += "<hdop>\(DecimalText.of(hdop))</hdop>" }
        out += "</trkpt>\n"
      }
      out += "    </trkseg>\n"
    }
    out += "  </trk>\n</gpx>\n"
    return out
  }

  static func escape(_ text: String) -> String {
    var out = ""
    for c in text {
      switch c {
      case "&": out += "&amp;"
      case "<": out += "&lt;"
      case ">": out += "&gt;"
      case "\"": out += "&quot;"
      case "'": out += "&apos;"
      default: out.append(c)
      }
    }
    return out
  }
}

/// Numbers as plain decimals: the shortest text that reads back as the same Double, never
/// in exponent form (GPX's `xsd:decimal` has none).
enum DecimalText {
  static func of(_ value: Double) -> String {
    let text = "\(value)"
    guard text.contains("e") || text.contains("E") else {
      return text.hasSuffix(".0") ? String(text.dropLast(2)) : text
    }
    // Tiny or huge magnitudes: expand the exponent by hand.
    let parts = text.lowercased().split(separator: "e")
    guard parts.count == 2, let exponent = Int(parts[1]) else { return text }
    var mantissa = String(parts[0])
    let negative = mantissa.hasPrefix("-")
    if negative { mantissa.removeFirst() }
    let pieces = mantissa.split(separator: ".", omittingEmptySubsequences: false)
    let integer = String(pieces[0])
    let fraction = pieces.count > 1 ? String(pieces[1]) : ""
    var digits = integer + fraction
    var point = integer.count + exponent
    if point <= 0 {
      digits = String(repeating: "0", count: -point + 1) + digits
      point = 1
    } else if point > digits.count {
      digits += String(repeating: "0", count: point - digits.count)
    }
    var result = String(digits.prefix(point)) + "." + String(digits.dropFirst(point))
    while result.hasSuffix("0") { result.removeLast() }
    if result.hasSuffix(".") { result.removeLast() }
    return (negative ? "-" : "") + result
  }
}
