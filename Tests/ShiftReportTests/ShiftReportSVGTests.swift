import DashPilotCore
import Foundation
import ShiftReport
import TestSupport
import Testing

/// The report's SVG read back by a real XML parser: one solid path per stretch that
/// contributed, one dashed line per gap between positions, every label and line in its
/// exact words, nothing outside the file, nothing but black and greys.
@Suite struct ShiftReportSVGTests {
  static let origin = GeoCoordinate(latitude: 51.5, longitude: -0.12)

  static func walk(from start: GeoCoordinate, bearing: Double, steps: Int, metres: Double = 50) -> [GeoCoordinate] {
    var points = [start]
    for _ in 0..<steps {
      points.append(GeographicDistance.destination(from: points[points.count - 1], bearing: bearing, distance: metres))
    }
    return points
  }

  /// Three stretches (the middle one a lone fix), two gaps, an uncovered start, a route.
  static func content(route: Bool = true) -> ShiftReportContent {
    let first = walk(from: origin, bearing: 90, steps: 20)  // 1 km east
    let lone = GeographicDistance.destination(from: first[first.count - 1], bearing: 0, distance: 400)
    let third = walk(from: GeographicDistance.destination(from: lone, bearing: 0, distance: 400), bearing: 0, steps: 20)
    let line = walk(from: origin, bearing: 90, steps: 20) + walk(from: first[first.count - 1], bearing: 0, steps: 36)
    return ShiftReportContent(
      title: "Shift #7 · Tue 14 Nov 08:00–09:00", stretches: [first, [lone], third],
      gapLabels: ["not counted 08:15–08:22 (7 min)", "not counted 08:22–08:30 (8 min)"], startLabel: "start 08:05",
      endLabel: "end 08:50", startNote: "not counted 08:00–08:05 (5 min)", route: route ? line : [],
      offRoute: route ? [.init(coordinate: lone, label: "off route 08:22")] : [],
      summary: "2.0 mi recorded · partial route",
      lines: [
        "2 unbroken stretches of capture", "3 capture gaps", "gap 08:00–08:05 (5 min): shift started before capture",
        "This is a partial route: capture was interrupted, so more was driven than was recorded.",
      ], unit: .miles)
  }

  @Test("solid paths are the stretches, dashed lines the gaps, a lone fix a dot, every label present")
  func structure() throws {
    let content = Self.content()
    let svg = try SVGDocument(ShiftReportSVG.render(content))
    let stretches = svg.elements(ofClass: "stretch")
    #expect(stretches.count == 2)
    #expect(stretches.allSatisfy { $0.name == "path" && $0.attributes["stroke-dasharray"] == nil })
    #expect(svg.elements(ofClass: "lone-position").count == 1)
    let gaps = svg.elements(ofClass: "gap")
    #expect(gaps.count == 2)
    #expect(gaps.allSatisfy { $0.name == "line" && $0.attributes["stroke-dasharray"] == "6 5" })
    #expect(svg.elements.filter { $0.attributes["stroke-dasharray"] != nil }.count == 3)  // the legend's too
    #expect(svg.elements(ofClass: "gap-label").map(\.text) == content.gapLabels)
    #expect(svg.elements(ofClass: "start-label").map(\.text) == ["start 08:05"])
    #expect(svg.elements(ofClass: "start-note").map(\.text) == ["not counted 08:00–08:05 (5 min)"])
    #expect(svg.elements(ofClass: "end-label").map(\.text) == ["end 08:50"])
    #expect(svg.elements(ofClass: "end-note").isEmpty)
    #expect(svg.elements(ofClass: "start").count == 1 && svg.elements(ofClass: "end").count == 1)
    #expect(svg.elements(ofClass: "route").count == 1)
    #expect(svg.elements(ofClass: "off-route-label").map(\.text) == ["off route 08:22"])
    #expect(svg.elements(ofClass: "title").map(\.text) == ["Shift #7 · Tue 14 Nov 08:00–09:00"])
    #expect(svg.elements(ofClass: "summary").map(\.text) == ["2.0 mi recorded · partial route"])
    #expect(svg.elements(ofClass: "line").map(\.text) == content.lines)
    #expect(svg.elements(ofClass: "north-arrow").count == 1)
    #expect(svg.elements(ofClass: "scale-bar").count == 1)
    #expect(
      svg.elements.first { $0.name == "desc" }?.text
        == ([content.summary] + content.lines).joined(separator: " "))
  }

  @Test("each gap's dashed line runs from the last position before it to the first after it")
  func gapsJoinTheirStretches() throws {
    let content = Self.content()
    let svg = try SVGDocument(ShiftReportSVG.render(content))
    let projection = try #require(ShiftReportLayout(content).projection)
    let gaps = svg.elements(ofClass: "gap")
    let ends = [
      (content.stretches[0].last!, content.stretches[1].first!),
      (content.stretches[1].last!, content.stretches[2].first!),
    ]
    for (gap, (from, to)) in zip(gaps, ends) {
      let a = projection.point(from)
      let b = projection.point(to)
      for (name, value) in [("x1", a.x), ("y1", a.y), ("x2", b.x), ("y2", b.y)] {
        #expect(abs((Double(gap.attributes[name] ?? "") ?? .nan) - value) <= 0.05, "\(name)")
      }
    }
    // The solid path of the first stretch starts at its first position and ends at its last.
    let path = SVGDocument.numbers(inPath: svg.elements(ofClass: "stretch")[0].attributes["d"] ?? "")
    let start = projection.point(content.stretches[0].first!)
    #expect(abs(path[0] - start.x) <= 0.05 && abs(path[1] - start.y) <= 0.05)
    #expect(abs(path[path.count - 2] - Double(gaps[0].attributes["x1"]!)!) <= 0.05)
  }

  @Test("self-contained, no script, and only black, white and greys")
  func selfContainedAndGreyscale() throws {
    let text = ShiftReportSVG.render(Self.content())
    for forbidden in ["href", "url(", "<script", "@import", "<image", "foreignObject", "<style", "@font-face"] {
      #expect(!text.contains(forbidden), "\(forbidden)")
    }
    #expect(text.components(separatedBy: "http").count == 2)  // the namespace name only
    #expect(text.contains("xmlns=\"http://www.w3.org/2000/svg\""))
    let svg = try SVGDocument(text)
    let colours = Set(svg.elements.flatMap { [$0.attributes["fill"], $0.attributes["stroke"]] }.compactMap { $0 })
    for colour in colours where colour != "none" {
      #expect(colour.count == 7 && colour.hasPrefix("#"), "\(colour)")
      let hex = Array(colour.dropFirst())
      #expect(hex[0..<2] == hex[2..<4] && hex[2..<4] == hex[4..<6], "\(colour) is not a grey")
    }
  }

  @Test("shapes are true: a kilometre east and a kilometre north are drawn the same length")
  func projectionKeepsShapes() throws {
    let content = Self.content()
    let projection = try #require(ShiftReportLayout(content).projection)
    let east = GeographicDistance.destination(from: Self.origin, bearing: 90, distance: 1000)
    let north = GeographicDistance.destination(from: Self.origin, bearing: 0, distance: 1000)
    let o = projection.point(Self.origin)
    let e = projection.point(east)
    let n = projection.point(north)
    #expect(abs((e.x - o.x) - (o.y - n.y)) < 0.01 * (e.x - o.x))
    #expect(abs(e.y - o.y) < 0.5 && abs(n.x - o.x) < 0.5)
    // The scale bar is as long as its label says, at the drawing's scale.
    let svg = try SVGDocument(ShiftReportSVG.render(content))
    let bar = try #require(svg.elements(ofClass: "scale-bar").first)
    let length = try #require(Double(bar.attributes["data-length"] ?? ""))
    let label = try #require(svg.elements.first { $0.name == "text" && $0.text.hasSuffix(" mi") }?.text)
    let miles = try #require(Double(label.dropLast(3)))
    #expect(abs(length * projection.metresPerUnit - miles * 1609.344) < 0.1 * projection.metresPerUnit)
    #expect(length <= ShiftReportLayout(content).map.width / 4)
  }

  @Test("nothing usable: the report says which kind of nothing it is and draws nothing")
  func nothingToDraw() throws {
    let summary = "No distance measured: no usable position was recorded"
    let content = ShiftReportContent(
      title: "Shift #3 · Tue 14 Nov 08:00–09:00", stretches: [], gapLabels: [], startLabel: "", endLabel: "",
      summary: summary, lines: [], unit: .miles)
    let svg = try SVGDocument(ShiftReportSVG.render(content))
    #expect(svg.elements(ofClass: "empty").map(\.text) == [summary])
    #expect(svg.elements(ofClass: "summary").map(\.text) == [summary])
    #expect(svg.elements.filter { ["path", "line", "circle", "polyline"].contains($0.name) }.isEmpty)
    for name in ["stretch", "gap", "start", "end", "scale-bar", "north-arrow", "legend"] {
      #expect(svg.elements(ofClass: name).isEmpty, "\(name)")
    }
  }

  @Test("gaps that crowd the drawing: labels only where there is room, never over each other, and a note of the rest")
  func crowdedGaps() throws {
    // 40 stretches of 100 m eastwards, 100 m apart: 39 gaps, each with a label wider than it.
    var stretches: [[GeoCoordinate]] = []
    var start = Self.origin
    for _ in 0..<40 {
      let stretch = Self.walk(from: start, bearing: 90, steps: 2)
      stretches.append(stretch)
      start = GeographicDistance.destination(from: stretch[stretch.count - 1], bearing: 90, distance: 100)
    }
    var content = Self.content(route: false)
    content.stretches = stretches
    content.gapLabels = (0..<39).map { "not counted 09:\(10 + $0)–09:\(11 + $0) (1 min)" }
    let svg = try SVGDocument(ShiftReportSVG.render(content))
    #expect(svg.elements(ofClass: "gap").count == 39)
    let labels = svg.elements(ofClass: "gap-label")
    #expect(!labels.isEmpty && labels.count < 39)
    #expect(
      svg.elements(ofClass: "gaps-unlabelled").map(\.text) == [
        "\(39 - labels.count) of 39 gaps are not labelled here for want of room; each is listed below."
      ])
    // Each label's box and the note's (11-unit text, at least half its size a character)
    // apart from every other.
    let boxes = (labels + svg.elements(ofClass: "gaps-unlabelled")).map {
      label -> (x: Double, y: Double, width: Double) in
      let width = Double(label.text.count) * 5.5
      return (Double(label.attributes["x"]!)! - width / 2, Double(label.attributes["y"]!)!, width)
    }
    for (i, a) in boxes.enumerated() {
      for b in boxes[(i + 1)...] {
        let apart = a.x + a.width <= b.x || b.x + b.width <= a.x || abs(a.y - b.y) >= 11
        #expect(apart, "labels at \(a) and \(b) overlap")
      }
    }
  }

  @Test("a 10-hour 10 Hz stretch is simplified for drawing: the file stays under 1 MB")
  func longShiftStaysSmall() throws {
    // 360,000 positions 1.5 m apart along a winding road: what a receiver at 10 Hz gives.
    var points: [GeoCoordinate] = [Self.origin]
    points.reserveCapacity(360_000)
    var bearing = 0.0
    for index in 1..<360_000 {
      bearing += sin(Double(index) / 900) * 0.6
      points.append(GeographicDistance.destination(from: points[index - 1], bearing: bearing, distance: 1.5))
    }
    var content = Self.content(route: false)
    content.stretches = [points]
    content.gapLabels = []
    let text = ShiftReportSVG.render(content)
    #expect(text.utf8.count < 1_000_000, "\(text.utf8.count) bytes")
    let svg = try SVGDocument(text)
    #expect(svg.elements(ofClass: "stretch").count == 1)
  }
}
