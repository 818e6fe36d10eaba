import DashPilotCore
import FoundationEssentials

/// The delivery day on the map: the places beneath everything, each stop a diamond where
/// the vehicle stood with a black numbered badge beside it, each visited job's destination
/// an open triangle around it, labelled with the stop that visited it. Told apart by
/// shape, never by colour.
extension ShiftReportMap {
  static let placeFill = "#eeeeee"
  static let placeStroke = "#555555"
  /// Half the diagonal of a stop's diamond.
  static let stopSize = 6.0

  /// Each place's outline over a pale fill, cut at the map's edge (a large place is not
  /// shrunk into the drawing; no clip path, which the file's self-containment forbids).
  func places() -> String {
    var svg = ""
    for place in content.places {
      let rings = outline(place.area).map { PlaceClipping.clipped($0, to: map) }.filter { $0.count >= 3 }
      guard !rings.isEmpty else { continue }
      let d = rings.map { SVGText.pathData($0) + "Z" }.joined()
      svg +=
        SVGText.element(
          "path",
          [
            ("class", "place"), ("d", d), ("fill", Self.placeFill), ("fill-rule", "evenodd"),
            ("stroke", Self.placeStroke), ("stroke-width", "1.5"),
          ]) + "\n"
    }
    return svg
  }

  /// A place's rings on the drawing: a circle as a 72-sided polygon, or every ring.
  func outline(_ area: PlaceArea) -> [[(x: Double, y: Double)]] {
    switch area {
    case .circle(let centre, let radius):
      let c = place(centre)
      let r = radius * projection.scale
      return [
        (0..<72).map { k in
          let angle = Double(k) * Double.pi / 36
          return (c.x + r * Trigonometry.cos(angle), c.y + r * Trigonometry.sin(angle))
        }
      ]
    case .polygons(let polygons):
      return polygons.flatMap { $0 }.map { $0.map(place) }
    }
  }

  /// Where on the map `place`'s name goes: the middle of what is drawn of it, then beside it.
  func placeLabels(_ placement: inout ReportLabelPlacement) -> String {
    var svg = ""
    for shape in content.places {
      let points = outline(shape.area).first.map { PlaceClipping.clipped($0, to: map) } ?? []
      guard !points.isEmpty else { continue }
      let xs = points.map(\.x)
      let ys = points.map(\.y)
      let (low, high) = ((xs.min() ?? 0, ys.min() ?? 0), (xs.max() ?? 0, ys.max() ?? 0))
      let middle = ((low.0 + high.0) / 2, (low.1 + high.1) / 2)
      let probe = ReportLabelPlacement.box(shape.label, size: 11, centreX: 0, centreY: 0)
      var centres = [middle]
      for step in [0.0, 14, 28] {
        centres += [
          (middle.0, low.1 - 4 - probe.height / 2 - step), (middle.0, high.1 + 4 + probe.height / 2 + step),
          (low.0 - 4 - probe.width / 2 - step, middle.1), (high.0 + 4 + probe.width / 2 + step, middle.1),
        ]
      }
      let candidates = centres.map {
        ReportLabelPlacement.box(shape.label, size: 11, centreX: $0.0, centreY: $0.1)
      }
      // A place's name has no room when the drive crowds it: the list beneath names it.
      guard let box = placement.placeClear(candidates) else { continue }
      svg += placed(shape.label, class: "place-label", box, size: 11)
    }
    return svg
  }

  /// The boxes the stops' and jobs' shapes take: no label may cover them.
  var dayMarkerBoxes: [ReportRect] {
    content.stops.map(\.coordinate).map(place).map { ReportRect(x: $0.x - 7, y: $0.y - 7, width: 14, height: 14) }
      + content.jobs.map(\.coordinate).map(place).map {
        ReportRect(x: $0.x - 12.5, y: $0.y - 14, width: 25, height: 21.5)
      }
  }

  /// Each stop's diamond and its badge, the badge placed clear of everything when it can
  /// be: near it in full, else its number alone, farther out if need be; a stop with no
  /// room even for that is left unnumbered on the map, and a note in a corner says how
  /// many (the list beneath gives every stop).
  func stops(_ placement: inout ReportLabelPlacement) -> String {
    var svg = ""
    var leaders = ""
    var badges = ""
    var unnumbered = 0
    for stop in content.stops {
      let p = place(stop.coordinate)
      let s = Self.stopSize
      let d =
        "M\(SVGText.number(p.x)) \(SVGText.number(p.y - s))L\(SVGText.number(p.x + s)) \(SVGText.number(p.y))"
        + "L\(SVGText.number(p.x)) \(SVGText.number(p.y + s))L\(SVGText.number(p.x - s)) \(SVGText.number(p.y))Z"
      svg +=
        SVGText.element(
          "path",
          [
            ("class", "stop"), ("data-number", "\(stop.number)"), ("d", d), ("fill", "#ffffff"),
            ("stroke", "#000000"), ("stroke-width", "2"),
          ]) + "\n"
      let short = "\(stop.number)"
      var text = stop.label
      var box = placement.placeClear(Self.badgeCandidates(text, at: p, rows: 3))
      if box == nil {
        text = short
        box = placement.placeClear(Self.badgeCandidates(short, at: p, rows: 6))
      }
      guard let box else {
        unnumbered += 1
        continue
      }
      let badge = self.badge(text, number: stop.number, box, from: p)
      leaders += badge.leader
      badges += badge.box
    }
    if unnumbered > 0 {
      let note = Self.unnumberedText(unnumbered, of: content.stops.count)
      let corners = noteCorners(note)
      badges += placed(
        note, class: "stops-unnumbered", placement.placeClear(corners) ?? placement.place(corners), size: 11)
    }
    // The lines under the diamonds, so that each ends at its diamond's edge.
    return leaders + svg + badges
  }

  /// "3 of 40 stops are not numbered here for want of room; each is listed below."
  static func unnumberedText(_ count: Int, of total: Int) -> String {
    "\(count) of \(total) stops \(count == 1 ? "is" : "are") not numbered here for want of room; each is listed below."
  }

  /// A badge's box: bold 11-unit text, about 0.62 of its size a character, and padding.
  static func badgeBox(_ text: String, centreX: Double, centreY: Double) -> ReportRect {
    let width = Double(text.count) * 11 * 0.62 + 8
    let height = 17.0
    return ReportRect(x: centreX - width / 2, y: centreY - height / 2, width: width, height: height)
  }

  /// Above right of the diamond, above left, below right, below left, then above and
  /// below it, each a row farther out, `rows` rows.
  static func badgeCandidates(_ text: String, at p: (x: Double, y: Double), rows: Int) -> [ReportRect] {
    let probe = badgeBox(text, centreX: 0, centreY: 0)
    var candidates: [ReportRect] = []
    for row in 0..<rows {
      let step = Double(row) * (probe.height + 2)
      let up = p.y - 9 - step - probe.height / 2
      let down = p.y + 9 + step + probe.height / 2
      let right = p.x + 6 + probe.width / 2
      let left = p.x - 6 - probe.width / 2
      for (x, y) in [(right, up), (left, up), (right, down), (left, down), (p.x, up), (p.x, down)] {
        candidates.append(badgeBox(text, centreX: x, centreY: y))
      }
    }
    return candidates
  }

  /// White bold text on a black rounded box, and the line from the box to the diamond.
  func badge(_ text: String, number: Int, _ box: ReportRect, from p: (x: Double, y: Double)) -> (
    leader: String, box: String
  ) {
    let n = SVGText.number
    let nearest = (min(max(p.x, box.x), box.x + box.width), min(max(p.y, box.y), box.y + box.height))
    let leader =
      SVGText.element(
        "line",
        [
          ("class", "stop-leader"), ("x1", n(p.x)), ("y1", n(p.y)), ("x2", n(nearest.0)), ("y2", n(nearest.1)),
          ("stroke", "#000000"), ("stroke-width", "1"),
        ]) + "\n"
    var svg =
      SVGText.element(
        "rect",
        [
          ("class", "stop-badge"), ("data-number", "\(number)"), ("x", n(box.x)), ("y", n(box.y)),
          ("width", n(box.width)),
          ("height", n(box.height)), ("rx", "3"), ("fill", "#000000"),
        ]) + "\n"
    svg +=
      SVGText.textElement(
        [
          ("class", "stop-label"), ("x", n(box.x + box.width / 2)), ("y", n(box.y + box.height / 2 + 11 * 0.35)),
          ("font-size", "11"), ("font-weight", "bold"), ("text-anchor", "middle"), ("fill", "#ffffff"),
        ], text) + "\n"
    return (leader, svg)
  }

  /// Each visited job's destination, an open triangle large enough to hold the diamond of
  /// the stop that visited it (a job is visited within tens of metres, a few units on most
  /// drawings) so that both show, and its label where it has room.
  func jobs(_ placement: inout ReportLabelPlacement) -> String {
    var svg = ""
    for job in content.jobs {
      let p = place(job.coordinate)
      let n = SVGText.number
      let d = "M\(n(p.x)) \(n(p.y - 13))L\(n(p.x + 11.3)) \(n(p.y + 6.5))L\(n(p.x - 11.3)) \(n(p.y + 6.5))Z"
      svg +=
        SVGText.element(
          "path", [("class", "job"), ("d", d), ("fill", "none"), ("stroke", "#000000"), ("stroke-width", "2")])
        + "\n"
      // Below the triangle, else above it; with no room for it clear of everything, the
      // list beneath gives the job and its stop.
      let candidates =
        ReportLabelPlacement.besideMarker(job.label, size: 11, at: p, rise: -17)
        + ReportLabelPlacement.besideMarker(job.label, size: 11, at: p, rise: 17)
      if let box = placement.placeClear(candidates) { svg += placed(job.label, class: "job-label", box, size: 11) }
    }
    return svg
  }
}
