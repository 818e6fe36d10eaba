import DashPilotCore
import Foundation
import ShiftReport
import TestSupport
import Testing

/// The delivery day on the drawing, read back by a real XML parser: each stop a diamond
/// where it stood with its numbered badge, each visited job a triangle labelled with its
/// stop, the places outlined (a large one cut at the map's edge) and named, the lists
/// beneath in their exact words, and still nothing but black, white and greys.
extension ShiftReportSVGTests {
  /// `content(route: false)` with two stops (one 400 m along the first stretch, one where
  /// the shift ends), a job visited at the first, a depot around it and an estate larger
  /// than the whole drawing.
  static func dayContent() -> ShiftReportContent {
    var content = Self.content(route: false)
    let first = content.stretches[0][8]
    let last = content.stretches[2][content.stretches[2].count - 1]
    content.stops = [
      .init(coordinate: first, number: 1, label: "1 · 5 min"), .init(coordinate: last, number: 2, label: "2 · 12 min"),
    ]
    content.jobs = [
      .init(coordinate: GeographicDistance.destination(from: first, bearing: 0, distance: 20), label: "job A1 · stop 1")
    ]
    let corners = [(-3000.0, -3000.0), (3000, -3000), (3000, 3000), (-3000, 3000), (-3000, -3000)].map { east, north in
      GeographicDistance.destination(
        from: GeographicDistance.destination(from: origin, bearing: 90, distance: east), bearing: 0, distance: north)
    }
    content.places = [
      .init(area: .circle(centre: first, radius: 60), label: "Depot (depot)"),
      .init(area: .polygons([[corners]]), label: "Estate (other)"),
    ]
    content.listings = Self.dayListings
    return content
  }

  static let dayListings: [ShiftReportContent.Listing] = [
    .init(
      kind: "stop-line",
      lines: [
        "2 stops of 2 min or more", "stop 1 08:10–08:15 (5 min) at Depot",
        "stop 2 08:38–08:50 (12 min) · still stopped when the shift ended",
      ]),
    .init(
      kind: "job-line", lines: ["Jobs:", "A1 Flowers: visited, stood 5 min (08:10–08:15), 20 m from it, at stop 1"]),
    .init(kind: "place-line", lines: ["Places drawn: Depot (depot), Estate (other)"]),
  ]

  /// A text element's box: anchored at its middle, its baseline at `y`, at least 0.5 of
  /// its size a character wide.
  static func textBox(_ element: SVGDocument.Element) -> ReportRect {
    let size = Double(element.attributes["font-size"] ?? "") ?? 11
    let width = Double(element.text.count) * size * 0.5
    let x = Double(element.attributes["x"] ?? "") ?? 0
    let y = Double(element.attributes["y"] ?? "") ?? 0
    return ReportRect(x: x - width / 2, y: y - size * 0.7, width: width, height: size * 0.9)
  }

  static func rect(_ element: SVGDocument.Element) -> ReportRect {
    func value(_ name: String) -> Double { Double(element.attributes[name] ?? "") ?? .nan }
    return ReportRect(x: value("x"), y: value("y"), width: value("width"), height: value("height"))
  }

  static func overlap(_ a: ReportRect, _ b: ReportRect) -> Bool {
    a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height
  }

  @Test("each stop a diamond where it stood with its badge, each job visited a triangle, the places outlined and named")
  func dayMarks() throws {
    let content = Self.dayContent()
    let svg = try SVGDocument(ShiftReportSVG.render(content))
    let layout = ShiftReportLayout(content)
    let projection = try #require(layout.projection)

    let stops = svg.elements(ofClass: "stop")
    #expect(stops.map { $0.attributes["data-number"] } == ["1", "2"])
    for (stop, mark) in zip(stops, content.stops) {
      let p = projection.point(mark.coordinate)
      let d = SVGDocument.numbers(inPath: stop.attributes["d"] ?? "")
      // A diamond: top, right, bottom, left corners 6 units from where it stood.
      let expected = [p.x, p.y - 6, p.x + 6, p.y, p.x, p.y + 6, p.x - 6, p.y]
      #expect(d.count == 8 && zip(d, expected).allSatisfy { abs($0 - $1) <= 0.05 }, "\(d) \(expected)")
      #expect(stop.attributes["fill"] == "#ffffff" && stop.attributes["stroke"] == "#000000")
    }
    #expect(svg.elements(ofClass: "stop-label").map(\.text) == ["1 · 5 min", "2 · 12 min"])
    #expect(svg.elements(ofClass: "stop-label").allSatisfy { $0.attributes["fill"] == "#ffffff" })
    let badges = svg.elements(ofClass: "stop-badge")
    #expect(badges.count == 2 && badges.allSatisfy { $0.attributes["fill"] == "#000000" })
    // Each badge's line starts where its stop stood and ends on the badge's edge.
    for (index, leader) in svg.elements(ofClass: "stop-leader").enumerated() {
      let p = projection.point(content.stops[index].coordinate)
      #expect(
        abs(Double(leader.attributes["x1"]!)! - p.x) <= 0.05 && abs(Double(leader.attributes["y1"]!)! - p.y) <= 0.05)
      let badge = Self.rect(badges[index])
      let end = (Double(leader.attributes["x2"]!)!, Double(leader.attributes["y2"]!)!)
      #expect(end.0 >= badge.x - 0.05 && end.0 <= badge.x + badge.width + 0.05)
      #expect(end.1 >= badge.y - 0.05 && end.1 <= badge.y + badge.height + 0.05)
    }

    let jobs = svg.elements(ofClass: "job")
    #expect(jobs.count == 1)
    let j = projection.point(content.jobs[0].coordinate)
    let triangle = SVGDocument.numbers(inPath: jobs.first?.attributes["d"] ?? "")
    let expected = [j.x, j.y - 13, j.x + 11.3, j.y + 6.5, j.x - 11.3, j.y + 6.5]
    #expect(triangle.count == 6 && zip(triangle, expected).allSatisfy { abs($0 - $1) <= 0.05 }, "\(triangle)")
    #expect(jobs.first?.attributes["fill"] == "none")
    #expect(svg.elements(ofClass: "job-label").map(\.text) == ["job A1 · stop 1"])

    let places = svg.elements(ofClass: "place")
    #expect(places.count == 2)
    #expect(places.allSatisfy { $0.attributes["fill"] == "#eeeeee" && $0.attributes["stroke"] == "#555555" })
    // The estate is larger than the drawing: cut to the map's frame, exactly its corners.
    let estate = SVGDocument.numbers(inPath: places[1].attributes["d"] ?? "")
    let map = layout.map
    let xs = stride(from: 0, to: estate.count, by: 2).map { estate[$0] }
    let ys = stride(from: 1, to: estate.count, by: 2).map { estate[$0] }
    #expect(xs.min() == map.x && xs.max() == map.x + map.width, "\(xs)")
    #expect(ys.min() == map.y && ys.max() == map.y + map.height, "\(ys)")
    // The depot: 72 corners 60 m from its centre, at the drawing's scale.
    let depot = SVGDocument.numbers(inPath: places[0].attributes["d"] ?? "")
    let centre = projection.point(content.stops[0].coordinate)
    #expect(depot.count == 144)
    for k in stride(from: 0, to: depot.count, by: 2) {
      let r = hypot(depot[k] - centre.x, depot[k + 1] - centre.y)
      #expect(abs(r - 60 / projection.metresPerUnit) <= 0.1, "corner \(k / 2): \(r)")
    }
    #expect(svg.elements(ofClass: "place-label").map(\.text) == ["Depot (depot)", "Estate (other)"])

    // No badge or label over another, nor over a stop's, a job's, the start's or the end's shape.
    let labels = ["start-label", "start-note", "end-label", "job-label", "place-label", "gap-label"]
      .flatMap { svg.elements(ofClass: $0) }.map(Self.textBox)
    let shapes =
      content.stops.map(\.coordinate).map(projection.point).map {
        ReportRect(x: $0.x - 6, y: $0.y - 6, width: 12, height: 12)
      }
      + content.jobs.map(\.coordinate).map(projection.point).map {
        ReportRect(x: $0.x - 11.3, y: $0.y - 13, width: 22.6, height: 19.5)
      }
    let boxes = badges.map(Self.rect) + labels
    for (i, a) in boxes.enumerated() {
      for b in boxes[(i + 1)...] { #expect(!Self.overlap(a, b), "\(a) and \(b) overlap") }
      for shape in shapes { #expect(!Self.overlap(a, shape), "\(a) covers a mark at \(shape)") }
    }
  }

  @Test("the lists beneath in their exact words and classes, the legend keys the new marks, still greyscale")
  func dayListsAndLegend() throws {
    let content = Self.dayContent()
    let text = ShiftReportSVG.render(content)
    let svg = try SVGDocument(text)
    #expect(svg.elements(ofClass: "line").map(\.text) == content.lines)
    for listing in Self.dayListings {
      #expect(svg.elements(ofClass: listing.kind).map(\.text) == listing.lines, "\(listing.kind)")
    }
    // In that order, beneath the shift's own lines.
    let order = svg.elements.filter { ["line", "stop-line", "job-line", "place-line"].contains($0.className ?? "") }
    #expect(order.map(\.text) == content.lines + Self.dayListings.flatMap(\.lines))
    let baselines = order.map { Double($0.attributes["y"] ?? "") ?? 0 }
    #expect(baselines == baselines.sorted() && Set(baselines).count == baselines.count)
    #expect(
      svg.elements.first { $0.name == "desc" }?.text
        == ([content.summary] + content.lines + Self.dayListings.flatMap(\.lines)).joined(separator: " "))
    for key in ["legend-stop", "legend-job", "legend-place"] {
      #expect(svg.elements(ofClass: key).count == 1, "\(key)")
    }
    let legend = svg.elements.filter { $0.name == "text" && $0.attributes["font-size"] == "12" }.map(\.text)
    #expect(legend.contains("stop: number · time stood") && legend.contains("job visited") && legend.contains("place"))

    let colours = Set(svg.elements.flatMap { [$0.attributes["fill"], $0.attributes["stroke"]] }.compactMap { $0 })
    #expect(colours.contains("#eeeeee") && colours.contains("#555555"))
    for colour in colours where colour != "none" {
      let hex = Array(colour.dropFirst())
      #expect(colour.count == 7 && hex[0..<2] == hex[2..<4] && hex[2..<4] == hex[4..<6], "\(colour) is not a grey")
    }
    for forbidden in ["href", "url(", "<script", "<style"] { #expect(!text.contains(forbidden), "\(forbidden)") }
  }

  @Test("a day without stops, jobs or places draws none and keys none")
  func noDay() throws {
    let svg = try SVGDocument(ShiftReportSVG.render(Self.content()))
    for name in ["stop", "stop-badge", "stop-label", "job", "job-label", "place", "place-label", "legend-stop"] {
      #expect(svg.elements(ofClass: name).isEmpty, "\(name)")
    }
  }

  @Test("40 stops along 4 km: no badge over another; where a badge has no room its number alone, else a note")
  func crowdedStops() throws {
    var content = Self.content(route: false)
    let line = Self.walk(from: Self.origin, bearing: 90, steps: 80)
    content.stretches = [line]
    content.gapLabels = []
    content.startNote = nil
    content.stops = (0..<40).map { k in
      .init(coordinate: line[2 * k + 1], number: k + 1, label: "\(k + 1) · \(2 + k % 14) min")
    }
    // A job visited at every fourth stop, 20 m north of it.
    content.jobs = stride(from: 0, to: 40, by: 4).map { k in
      .init(
        coordinate: GeographicDistance.destination(from: line[2 * k + 1], bearing: 0, distance: 20),
        label: "job J\(k + 1) · stop \(k + 1)")
    }
    let svg = try SVGDocument(ShiftReportSVG.render(content))
    #expect(svg.elements(ofClass: "stop").count == 40)
    #expect(svg.elements(ofClass: "job").count == 10)
    let jobLabels = svg.elements(ofClass: "job-label").map(\.text)
    #expect(jobLabels.allSatisfy { content.jobs.map(\.label).contains($0) } && !jobLabels.isEmpty, "\(jobLabels)")
    // Each badge says its stop's number: in full, or the number alone where that has no room.
    let numbers = svg.elements(ofClass: "stop-badge").compactMap { Int($0.attributes["data-number"] ?? "") }
    let labels = svg.elements(ofClass: "stop-label").map(\.text)
    #expect(numbers.count == labels.count && numbers == numbers.sorted() && Set(numbers).count == numbers.count)
    for (number, label) in zip(numbers, labels) {
      #expect(label == content.stops[number - 1].label || label == "\(number)", "badge \(number): \(label)")
    }
    #expect(labels.contains { $0.contains("min") } && labels.contains { !$0.contains("min") }, "\(labels)")
    let unnumbered = 40 - numbers.count
    #expect(
      svg.elements(ofClass: "stops-unnumbered").map(\.text)
        == (unnumbered == 0
          ? [] : ["\(unnumbered) of 40 stops are not numbered here for want of room; each is listed below."]))
    let badges = svg.elements(ofClass: "stop-badge").map(Self.rect)
    let others = ["start-label", "end-label", "stops-unnumbered", "job-label"].flatMap { svg.elements(ofClass: $0) }
      .map(
        Self.textBox)
    let projection = try #require(ShiftReportLayout(content).projection)
    let diamonds = content.stops.map { projection.point($0.coordinate) }.map {
      ReportRect(x: $0.x - 6, y: $0.y - 6, width: 12, height: 12)
    }
    for (i, a) in badges.enumerated() {
      for b in badges[(i + 1)...] + others + diamonds {
        #expect(!Self.overlap(a, b), "badge \(numbers[i]) \(a) over \(b)")
      }
    }
    for (i, a) in others.enumerated() {
      for b in others[(i + 1)...] { #expect(!Self.overlap(a, b), "label \(a) over \(b)") }
    }
  }
}
