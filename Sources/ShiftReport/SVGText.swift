import DashPilotCore

/// The few pieces of SVG text the report is written with: short numbers, path data,
/// elements with their text escaped (`XMLText`). Presentation attributes rather than a style sheet, so any viewer (and a
/// test reading the file) sees each element's look on the element itself.
enum SVGText {
  /// A drawing coordinate to a tenth of a unit, without a trailing ".0": a tenth of a CSS
  /// pixel is below what any screen shows, and keeps a long shift's file small.
  static func number(_ value: Double) -> String {
    let tenths = Int((value * 10).rounded(.toNearestOrAwayFromZero))
    let magnitude = tenths.magnitude
    let sign = tenths < 0 ? "-" : ""
    return magnitude % 10 == 0 ? "\(sign)\(magnitude / 10)" : "\(sign)\(magnitude / 10).\(magnitude % 10)"
  }

  /// "M1 2L3 4L5 6": a polyline's path data.
  static func pathData(_ points: [(x: Double, y: Double)]) -> String {
    var data = ""
    data.reserveCapacity(points.count * 12)
    for (index, point) in points.enumerated() {
      data += index == 0 ? "M" : "L"
      data += number(point.x)
      data += " "
      data += number(point.y)
    }
    return data
  }

  /// An element with its attributes in the order given, self-closed.
  static func element(_ name: String, _ attributes: [(String, String)]) -> String {
    "<\(name)\(attributeText(attributes))/>"
  }

  /// An element holding `text`, escaped.
  static func textElement(_ attributes: [(String, String)], _ text: String) -> String {
    "<text\(attributeText(attributes))>\(XMLText.escaped(text))</text>"
  }

  static func attributeText(_ attributes: [(String, String)]) -> String {
    attributes.map { " \($0.0)=\"\(XMLText.escaped($0.1))\"" }.joined()
  }

  /// Lines of at most `width` characters, broken between words: the report's sentences
  /// beneath the drawing (SVG text does not wrap by itself).
  static func wrapped(_ text: String, width: Int) -> [String] {
    var lines: [String] = []
    var current = ""
    for word in text.split(separator: " ", omittingEmptySubsequences: false) {
      if current.isEmpty {
        current = String(word)
      } else if current.count + 1 + word.count <= width {
        current += " " + word
      } else {
        lines.append(current)
        current = String(word)
      }
    }
    lines.append(current)
    return lines
  }
}
