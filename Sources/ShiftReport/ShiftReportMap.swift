import DashPilotCore
import FoundationEssentials

/// The drawing itself, bottom to top: the route in grey, each stretch a solid black line
/// (a lone fix a dot), each gap a thin dashed straight line labelled "not counted" with its
/// times, the off-route marks, the start and end markers, the north arrow and the scale bar.
struct ShiftReportMap {
  let content: ShiftReportContent
  let projection: ReportProjection
  let map: ReportRect

  /// Points closer than this to the line drawn are left out of it (drawing units): the
  /// daemon simplified in metres already; this keeps only what the drawing's scale shows.
  static let tolerance = 0.3
  static let stretchWidth = 3.5
  static let gapWidth = 1.5
  static let gapDashes = "6 5"

  var svg: String {
    var svg = ""
    if content.route.count >= 2 {
      svg += path(
        content.route,
        [
          ("class", "route"), ("fill", "none"), ("stroke", "#c4c4c4"), ("stroke-width", "9"),
          ("stroke-linecap", "round"), ("stroke-linejoin", "round"),
        ])
    }
    let drawn = content.stretches.filter { !$0.isEmpty }
    for stretch in drawn {
      if stretch.count == 1 {
        svg += dot(stretch[0], radius: 2.5, [("class", "lone-position"), ("fill", "#000000")])
      } else {
        svg += path(
          stretch,
          [
            ("class", "stretch"), ("fill", "none"), ("stroke", "#000000"),
            ("stroke-width", SVGText.number(Self.stretchWidth)), ("stroke-linecap", "round"),
            ("stroke-linejoin", "round"),
          ])
      }
    }
    for (index, label) in content.gapLabels.enumerated() where index + 1 < drawn.count {
      if let from = drawn[index].last, let to = drawn[index + 1].first { svg += gap(from: from, to: to, label) }
    }
    for mark in content.offRoute { svg += offRoute(mark) }
    if let first = drawn.first?.first, let last = drawn.last?.last {
      svg += markers(start: first, end: last)
    }
    svg += northArrow()
    svg += scaleBar()
    return svg
  }

  func place(_ coordinate: GeoCoordinate) -> (x: Double, y: Double) {
    let point = projection.point(coordinate)
    return (point.x, point.y)
  }

  func path(_ coordinates: [GeoCoordinate], _ attributes: [(String, String)]) -> String {
    let points = coordinates.map { projection.point($0) }
    let kept = PolylineSimplifier.keptIndices(points, tolerance: Self.tolerance).map { (points[$0].x, points[$0].y) }
    return SVGText.element("path", attributes + [("d", SVGText.pathData(kept))]) + "\n"
  }

  func dot(_ coordinate: GeoCoordinate, radius: Double, _ attributes: [(String, String)]) -> String {
    let p = place(coordinate)
    return SVGText.element(
      "circle", attributes + [("cx", SVGText.number(p.x)), ("cy", SVGText.number(p.y)), ("r", SVGText.number(radius))])
      + "\n"
  }

  func text(_ text: String, class name: String, x: Double, y: Double, size: Double, anchor: String = "start")
    -> String
  {
    SVGText.textElement(
      [
        ("class", name), ("x", SVGText.number(x)), ("y", SVGText.number(y)), ("font-size", SVGText.number(size)),
        ("text-anchor", anchor), ("fill", "#000000"),
      ] + ShiftReportSVG.halo, text) + "\n"
  }

  /// A straight dashed line from the last position before the gap to the first after it:
  /// where capture was lost, never a line somebody drove. Its label sits beside the line's
  /// middle, on the side towards the top of the page.
  func gap(from: GeoCoordinate, to: GeoCoordinate, _ label: String) -> String {
    let a = place(from)
    let b = place(to)
    var svg =
      SVGText.element(
        "line",
        [
          ("class", "gap"), ("x1", SVGText.number(a.x)), ("y1", SVGText.number(a.y)), ("x2", SVGText.number(b.x)),
          ("y2", SVGText.number(b.y)), ("stroke", "#333333"), ("stroke-width", SVGText.number(Self.gapWidth)),
          ("stroke-dasharray", Self.gapDashes),
        ]) + "\n"
    let dx = b.x - a.x
    let dy = b.y - a.y
    let length = (dx * dx + dy * dy).squareRoot()
    var normal = length > 0 ? (x: -dy / length, y: dx / length) : (x: 0.0, y: -1.0)
    if normal.y > 0 { normal = (-normal.x, -normal.y) }
    let offset = 9.0
    svg += text(
      label, class: "gap-label", x: (a.x + b.x) / 2 + normal.x * offset, y: (a.y + b.y) / 2 + normal.y * offset,
      size: 11, anchor: "middle")
    return svg
  }

  /// A cross where guidance confirmed the car had left the route, with its time.
  func offRoute(_ mark: ShiftReportContent.Mark) -> String {
    let p = place(mark.coordinate)
    let r = 5.0
    let d =
      "M\(SVGText.number(p.x - r)) \(SVGText.number(p.y - r))L\(SVGText.number(p.x + r)) \(SVGText.number(p.y + r))"
      + "M\(SVGText.number(p.x - r)) \(SVGText.number(p.y + r))L\(SVGText.number(p.x + r)) \(SVGText.number(p.y - r))"
    return SVGText.element(
      "path", [("class", "off-route"), ("d", d), ("stroke", "#000000"), ("stroke-width", "2.5"), ("fill", "none")])
      + "\n" + text(mark.label, class: "off-route-label", x: p.x + 8, y: p.y - 8, size: 11)
  }

  /// A ring at the first position and a filled square at the last: told apart by shape.
  func markers(start: GeoCoordinate, end: GeoCoordinate) -> String {
    let s = place(start)
    let e = place(end)
    var svg =
      SVGText.element(
        "rect",
        [
          ("class", "end"), ("x", SVGText.number(e.x - 5)), ("y", SVGText.number(e.y - 5)), ("width", "10"),
          ("height", "10"), ("fill", "#000000"),
        ]) + "\n"
    svg +=
      SVGText.element(
        "circle",
        [
          ("class", "start"), ("cx", SVGText.number(s.x)), ("cy", SVGText.number(s.y)), ("r", "6"),
          ("fill", "#ffffff"), ("stroke", "#000000"), ("stroke-width", "2.5"),
        ]) + "\n"
    svg += text(content.startLabel, class: "start-label", x: s.x + 10, y: s.y - 8, size: 12)
    if let note = content.startNote { svg += text(note, class: "start-note", x: s.x + 10, y: s.y - 22, size: 11) }
    svg += text(content.endLabel, class: "end-label", x: e.x + 10, y: e.y + 17, size: 12)
    if let note = content.endNote { svg += text(note, class: "end-note", x: e.x + 10, y: e.y + 31, size: 11) }
    return svg
  }

  /// North is up: the projection keeps it so.
  func northArrow() -> String {
    let x = map.x + map.width - 22
    let y = map.y + 14
    let d =
      "M\(SVGText.number(x)) \(SVGText.number(y))L\(SVGText.number(x + 7)) \(SVGText.number(y + 20))"
      + "L\(SVGText.number(x)) \(SVGText.number(y + 15))L\(SVGText.number(x - 7)) \(SVGText.number(y + 20))Z"
    return "<g class=\"north-arrow\">" + SVGText.element("path", [("d", d), ("fill", "#000000")])
      + SVGText.textElement(
        [
          ("x", SVGText.number(x)), ("y", SVGText.number(y + 34)), ("font-size", "12"), ("font-weight", "bold"),
          ("text-anchor", "middle"), ("fill", "#000000"),
        ], "N") + "</g>\n"
  }

  /// A bar a round length long at the bottom left, with end ticks and its length.
  func scaleBar() -> String {
    let bar = ScaleBar(metresPerUnit: projection.metresPerUnit, maximumLength: map.width / 4, unit: content.unit)
    let x = map.x + 14
    let y = map.y + map.height - 14
    let d =
      "M\(SVGText.number(x)) \(SVGText.number(y - 6))L\(SVGText.number(x)) \(SVGText.number(y))"
      + "L\(SVGText.number(x + bar.length)) \(SVGText.number(y))L\(SVGText.number(x + bar.length)) \(SVGText.number(y - 6))"
    return "<g class=\"scale-bar\" data-length=\"\(SVGText.number(bar.length))\">"
      + SVGText.element("path", [("d", d), ("fill", "none"), ("stroke", "#000000"), ("stroke-width", "2")])
      + SVGText.textElement(
        [
          ("x", SVGText.number(x + bar.length / 2)), ("y", SVGText.number(y - 9)), ("font-size", "12"),
          ("text-anchor", "middle"), ("fill", "#000000"),
        ], bar.label) + "</g>\n"
  }
}
