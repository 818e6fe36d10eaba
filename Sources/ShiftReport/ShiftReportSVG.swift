import DashPilotCore
import FoundationEssentials

/// A shift as one self-contained SVG: no reference to anything outside the file, no
/// script, no font to fetch (generic families the viewer has), black and greys only, so
/// it prints and reads in greyscale. What is partial is said in words beneath the drawing
/// ("· partial route") and by the dashed gaps, never by colour.
public enum ShiftReportSVG {
  static let fonts = "DejaVu Sans, Liberation Sans, Arial, Helvetica, sans-serif"
  static let halo: [(String, String)] = [
    ("stroke", "#ffffff"), ("stroke-width", "3"), ("stroke-linejoin", "round"), ("paint-order", "stroke"),
  ]

  public static func render(_ content: ShiftReportContent) -> String {
    let layout = ShiftReportLayout(content)
    let width = SVGText.number(ShiftReportLayout.width)
    let height = SVGText.number(layout.height)
    var svg = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    svg += "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(width)\" height=\"\(height)\""
    svg += " viewBox=\"0 0 \(width) \(height)\" role=\"img\" font-family=\"\(fonts)\">\n"
    svg += "<title>\(XMLText.escaped(content.title))</title>\n"
    let described = [content.summary] + content.lines + content.listings.flatMap(\.lines)
    svg += "<desc>\(XMLText.escaped(described.joined(separator: " ")))</desc>\n"
    svg +=
      SVGText.element(
        "rect", [("class", "background"), ("width", width), ("height", height), ("fill", "#ffffff")]) + "\n"
    svg +=
      SVGText.textElement(
        [
          ("class", "title"), ("x", SVGText.number(ShiftReportLayout.side)),
          ("y", SVGText.number(ShiftReportLayout.titleBaseline)), ("font-size", "18"), ("font-weight", "bold"),
        ], content.title) + "\n"
    let map = layout.map
    svg +=
      SVGText.element(
        "rect",
        [
          ("class", "map-frame"), ("x", SVGText.number(map.x)), ("y", SVGText.number(map.y)),
          ("width", SVGText.number(map.width)), ("height", SVGText.number(map.height)), ("fill", "#ffffff"),
          ("stroke", "#bbbbbb"), ("stroke-width", "1"),
        ]) + "\n"
    if let projection = layout.projection {
      svg += ShiftReportMap(content: content, projection: projection, map: map).svg
      svg += ShiftReportLegend.items(content).svg(top: layout.legendTop, left: map.x, width: map.width)
    } else {
      // Nothing to draw: the frame says which kind of nothing it is, and nothing else.
      svg +=
        SVGText.textElement(
          [
            ("class", "empty"), ("x", SVGText.number(map.x + map.width / 2)),
            ("y", SVGText.number(map.y + map.height / 2)), ("font-size", "15"), ("text-anchor", "middle"),
            ("fill", "#222222"),
          ], content.summary) + "\n"
    }
    svg += lines(layout)
    svg += "</svg>\n"
    return svg
  }

  /// The shift's lines beneath the drawing: the figure first, in bold, then the rest.
  static func lines(_ layout: ShiftReportLayout) -> String {
    var svg = ""
    var baseline = layout.linesTop
    let lines = layout.summaryLines.map { (kind: "summary", text: $0) } + layout.otherLines
    for (index, line) in lines.map(\.text).enumerated() {
      let isSummary = index < layout.summaryLines.count
      var attributes: [(String, String)] = [
        ("class", lines[index].kind), ("x", SVGText.number(ShiftReportLayout.side)),
        ("y", SVGText.number(baseline)), ("font-size", isSummary ? "15" : "13"), ("fill", "#000000"),
      ]
      if isSummary { attributes.append(("font-weight", "bold")) }
      svg += SVGText.textElement(attributes, line) + "\n"
      baseline += ShiftReportLayout.lineHeight
    }
    return svg
  }
}
