import DashPilotCore
import FoundationEssentials

/// The drawing itself, bottom to top: the places (`ShiftReportMap+Day.swift`), the route in grey, each stretch a solid black line
/// (a lone fix a dot), each gap a thin dashed straight line labelled "not counted" with its
/// times, the off-route marks, the stops and jobs, the start and end markers, the north
/// arrow and the scale bar.
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
    var svg = places()
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
    var gaps: [(from: GeoCoordinate, to: GeoCoordinate, label: String)] = []
    for index in content.drawnGaps {
      if let from = drawn[index].last, let to = drawn[index + 1].first {
        gaps.append((from, to, content.gapLabels[index]))
      }
    }
    // Every line drawn, so that no label's halo rubs one out.
    let lines = drawn.map { $0.map(place) } + gaps.map { [place($0.from), place($0.to)] }
    let markerPoints = [drawn.first?.first, drawn.last?.last].compactMap { $0 } + content.offRoute.map(\.coordinate)
    let markerBoxes =
      markerPoints.map(place).map { ReportRect(x: $0.x - 7, y: $0.y - 7, width: 14, height: 14) } + dayMarkerBoxes
    let unplaced = ReportLabelPlacement(map: map, reserved: [northArrowBox, scaleBarBox] + markerBoxes, lines: lines)
    var labels = self.labels(drawn, gaps, unplaced)
    if labels.unlabelled > 0 {
      // Again with the note's corner kept for it first, sized for the most it can say.
      var placement = unplaced
      let corners = noteCorners(Self.unlabelledText(gaps.count, of: gaps.count))
      let note = placement.placeClear(corners) ?? placement.place(corners)
      labels = self.labels(drawn, gaps, placement)
      if labels.unlabelled > 0 {
        labels.svg += placed(
          Self.unlabelledText(labels.unlabelled, of: gaps.count), class: "gaps-unlabelled", note, size: 11)
      }
    }
    svg += labels.svg
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

  /// `text` centred in `box`, as `ReportLabelPlacement` placed it.
  func placed(_ text: String, class name: String, _ box: ReportRect, size: Double) -> String {
    self.text(
      text, class: name, x: box.x + box.width / 2, y: ReportLabelPlacement.baseline(of: box, size: size), size: size,
      anchor: "middle")
  }

  /// A marker's label `rise` units above `point` (below when negative), beside it.
  func markerLabel(
    _ text: String, class name: String, at point: (x: Double, y: Double), rise: Double, size: Double,
    _ placement: inout ReportLabelPlacement
  ) -> String {
    let box = placement.place(ReportLabelPlacement.besideMarker(text, size: size, at: point, rise: rise))
    return placed(text, class: name, box, size: size)
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
  /// middle, clear of it (`ReportLabelPlacement`).
  func gap(from: GeoCoordinate, to: GeoCoordinate, _ label: String, _ placement: inout ReportLabelPlacement)
    -> (svg: String, labelled: Bool)
  {
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
    guard let box = placement.placeClear(placement.besideLine(label, size: 11, from: a, to: b), naming: (a, b)) else {
      return (svg, false)
    }
    svg += placed(label, class: "gap-label", box, size: 11)
    return (svg, true)
  }

  /// The gaps' dashed lines with their labels, then the departures' and the markers'
  /// labels, the markers' placed first (the nearest to what they name); and how many gaps
  /// had no room for a label.
  func labels(
    _ drawn: [[GeoCoordinate]], _ gaps: [(from: GeoCoordinate, to: GeoCoordinate, label: String)],
    _ placement: ReportLabelPlacement
  ) -> (svg: String, unlabelled: Int) {
    var placement = placement
    var markers = ""
    if let first = drawn.first?.first, let last = drawn.last?.last {
      markers = self.markers(start: place(first), end: place(last), &placement)
    }
    let stops = self.stops(&placement)
    let day = jobs(&placement) + stops
    let marks = content.offRoute.map { offRoute($0, &placement) }
    var svg = ""
    var unlabelled = 0
    for gap in gaps {
      let (line, labelled) = self.gap(from: gap.from, to: gap.to, gap.label, &placement)
      svg += line
      if !labelled { unlabelled += 1 }
    }
    return (svg + placeLabels(&placement) + marks.joined() + day + markers, unlabelled)
  }

  /// Where gaps crowd the drawing, the labels with no room of their own are left off and
  /// a note in a corner of the map says so; the list beneath gives every gap.
  func noteCorners(_ text: String) -> [ReportRect] {
    let probe = ReportLabelPlacement.box(text, size: 11, centreX: 0, centreY: 0)
    let bottom = map.y + map.height - 4 - probe.height / 2
    let top = map.y + 4 + probe.height / 2
    let right = map.x + map.width - 4 - probe.width / 2
    let left = map.x + 4 + probe.width / 2
    return [(right, bottom), (left, top), (right, top), (left, bottom)].map {
      ReportLabelPlacement.box(text, size: 11, centreX: $0.0, centreY: $0.1)
    }
  }

  /// "3 of 40 gaps are not labelled here for want of room; each is listed below."
  static func unlabelledText(_ count: Int, of total: Int) -> String {
    "\(count) of \(total) gaps \(count == 1 ? "is" : "are") not labelled here for want of room; each is listed below."
  }

  /// A cross where guidance confirmed the car had left the route, with its time.
  func offRoute(_ mark: ShiftReportContent.Mark, _ placement: inout ReportLabelPlacement) -> String {
    let p = place(mark.coordinate)
    let r = 5.0
    let d =
      "M\(SVGText.number(p.x - r)) \(SVGText.number(p.y - r))L\(SVGText.number(p.x + r)) \(SVGText.number(p.y + r))"
      + "M\(SVGText.number(p.x - r)) \(SVGText.number(p.y + r))L\(SVGText.number(p.x + r)) \(SVGText.number(p.y - r))"
    return SVGText.element(
      "path", [("class", "off-route"), ("d", d), ("stroke", "#000000"), ("stroke-width", "2.5"), ("fill", "none")])
      + "\n"
      + placed(
        mark.label, class: "off-route-label",
        placement.place(ReportLabelPlacement.besideMarker(mark.label, size: 11, at: p, rise: 8)), size: 11)
  }

  /// A ring at the first position and a filled square at the last: told apart by shape.
  func markers(start s: (x: Double, y: Double), end e: (x: Double, y: Double), _ placement: inout ReportLabelPlacement)
    -> String
  {
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
    svg += markerLabel(content.startLabel, class: "start-label", at: s, rise: 8, size: 12, &placement)
    if let note = content.startNote {
      svg += markerLabel(note, class: "start-note", at: s, rise: 22, size: 11, &placement)
    }
    svg += markerLabel(content.endLabel, class: "end-label", at: e, rise: -17, size: 12, &placement)
    if let note = content.endNote {
      svg += markerLabel(note, class: "end-note", at: e, rise: -31, size: 11, &placement)
    }
    return svg
  }

  /// The north arrow's corner of the map: within the margin the drawing keeps clear.
  var northArrowBox: ReportRect { ReportRect(x: map.x + map.width - 30, y: map.y + 4, width: 16, height: 34) }

  /// North is up: the projection keeps it so. "N" over the arrow's tip.
  func northArrow() -> String {
    let x = map.x + map.width - 22
    let y = map.y + 19
    let d =
      "M\(SVGText.number(x)) \(SVGText.number(y))L\(SVGText.number(x + 6)) \(SVGText.number(y + 18))"
      + "L\(SVGText.number(x)) \(SVGText.number(y + 14))L\(SVGText.number(x - 6)) \(SVGText.number(y + 18))Z"
    return "<g class=\"north-arrow\">" + SVGText.element("path", [("d", d), ("fill", "#000000")])
      + SVGText.textElement(
        [
          ("x", SVGText.number(x)), ("y", SVGText.number(y - 3)), ("font-size", "12"), ("font-weight", "bold"),
          ("text-anchor", "middle"), ("fill", "#000000"),
        ], "N") + "</g>\n"
  }

  var bar: ScaleBar {
    ScaleBar(metresPerUnit: projection.metresPerUnit, maximumLength: map.width / 4, unit: content.unit)
  }

  /// The scale bar's corner of the map, its length above it.
  var scaleBarBox: ReportRect {
    ReportRect(x: map.x + 10, y: map.y + map.height - 36, width: bar.length + 8, height: 26)
  }

  /// A bar a round length long at the bottom left, with end ticks and its length.
  func scaleBar() -> String {
    let bar = self.bar
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
