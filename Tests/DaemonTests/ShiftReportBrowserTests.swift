import DashPilotCore
import Foundation
import ShiftReport
import TestSupport
import Testing

/// The report as a person sees it: written by the real `dashpilotctl report` from the real
/// daemon, rendered by Debian's Chromium to a PNG, and its pixels read back. The stretches'
/// ink lies where the samples were; across each gap there is nothing but the dashed line.
@Suite("a report rendered by a real browser", .serialized, .requiresChromium)
struct ShiftReportBrowserTests {
  /// Darker than this is ink (black is 0, the page 255, the route's grey about 196).
  static let ink = 120
  static let paper = 235

  /// The SVG's size, from its root element.
  static func size(_ svg: SVGDocument) throws -> (width: Int, height: Int) {
    let root = try #require(svg.root)
    return (Int(Double(root.attributes["width"] ?? "") ?? 0), Int(Double(root.attributes["height"] ?? "") ?? 0))
  }

  static func render(_ path: String, in directory: URL) throws -> (PNGImage, SVGDocument) {
    let svg = try SVGDocument(String(contentsOfFile: path, encoding: .utf8))
    let (width, height) = try size(svg)
    let png = directory.appendingPathComponent("report.png")
    try HeadlessChromium.screenshot(of: URL(fileURLWithPath: path), width: width, height: height, to: png)
    let image = try PNGImage(contentsOf: png)
    #expect(image.width == width && image.height == height)
    return (image, svg)
  }

  @Test("ink at every recorded position; along each gap dashes and paper, and paper beside it")
  func gappedShiftInTheBrowser() throws {
    let (daemon, directory) = try ShiftReportCommandTests.daemonWithGappedShift("report-browser")
    defer {
      daemon.stop()
      try? FileManager.default.removeItem(at: directory)
    }
    let path = directory.appendingPathComponent("shift-1.svg").path
    let written = try ShiftReportCommandTests.report(daemon, ["1", "-o", path])
    #expect(written.status == 0, "\(written.standardError)")
    let (image, svg) = try Self.render(path, in: directory)

    // Where the drawing put each position: the same fit of the same positions (the
    // daemon's simplification keeps every corner of these straight stretches).
    let fixture = GappedShiftFixture()
    let coordinates = fixture.positions.map { $0.map(\.coordinate) }
    let content = ShiftReportContent(
      title: "", stretches: coordinates, gapLabels: [], startLabel: "", endLabel: "", summary: "", lines: [],
      unit: .miles)
    let projection = try #require(ShiftReportLayout(content).projection)

    // The first position is under the start marker, a white ring: its ink is the ring's.
    let start = projection.point(coordinates[0][0])
    #expect(image.luminance(x: Int(start.x.rounded()), y: Int(start.y.rounded())) >= Self.paper)
    #expect(image.darkest(x: Int((start.x + 6).rounded()), y: Int(start.y.rounded()), radius: 1) <= Self.ink)
    var missing: [String] = []
    for (index, stretch) in coordinates.enumerated() {
      for coordinate in stretch {
        let p = projection.point(coordinate)
        if hypot(p.x - start.x, p.y - start.y) <= 8 { continue }
        let darkest = image.darkest(x: Int(p.x.rounded(.down)), y: Int(p.y.rounded(.down)), radius: 1)
        if darkest > Self.ink { missing.append("stretch \(index) at \(Int(p.x)),\(Int(p.y)): \(darkest)") }
      }
    }
    #expect(missing.isEmpty, "no ink where positions were: \(missing.prefix(5))")

    #expect(svg.elements(ofClass: "gap").count == 4)
    for index in 0..<(coordinates.count - 1) {
      let a = projection.point(coordinates[index].last!)
      let b = projection.point(coordinates[index + 1].first!)
      let length = hypot(b.x - a.x, b.y - a.y)
      var normal = (x: -(b.y - a.y) / length, y: (b.x - a.x) / length)
      if normal.y > 0 { normal = (-normal.x, -normal.y) }
      var onLine: [Int] = []
      var beside: [Int] = []  // 6 units off the line on each side: paper, the label clear of it
      let steps = Int(length)
      for step in 0...steps {
        let t = 0.15 + 0.7 * Double(step) / Double(max(steps, 1))
        let x = a.x + (b.x - a.x) * t
        let y = a.y + (b.y - a.y) * t
        onLine.append(image.darkest(x: Int(x.rounded()), y: Int(y.rounded()), radius: 0))
        for side in [6.0, -6.0] {
          beside.append(
            image.luminance(x: Int((x + normal.x * side).rounded()), y: Int((y + normal.y * side).rounded())))
        }
      }
      let inked = onLine.filter { $0 < 200 }.count
      let clear = onLine.filter { $0 >= Self.paper }.count
      // Dashes of 6 and spaces of 5: ink on roughly half, paper on much of the rest. A
      // solid stroke (a gap drawn as driven) would be ink from end to end.
      #expect(inked >= onLine.count / 4, "gap \(index): \(inked) of \(onLine.count) inked")
      #expect(clear >= onLine.count / 5, "gap \(index): only \(clear) of \(onLine.count) clear: a solid line?")
      #expect(beside.allSatisfy { $0 >= Self.paper }, "gap \(index): something drawn beside the dashed line")
    }

    // The page reads in greyscale: every pixel is a grey (Chromium draws what it is given).
    var coloured = 0
    for y in stride(from: 0, to: image.height, by: 3) {
      for x in stride(from: 0, to: image.width, by: 3) where !image.isGrey(x: x, y: y) { coloured += 1 }
    }
    #expect(coloured == 0)
  }

  @Test("no usable position: nothing drawn in the map but the sentence saying so")
  func nothingInTheBrowser() throws {
    let directory = try TestPaths.temporaryDirectory("report-browser-empty")
    defer { try? FileManager.default.removeItem(at: directory) }
    let daemon = try DaemonUnderTest()
    defer { daemon.stop() }
    try daemon.waitUntilReady()
    #expect(try daemon.control(["shift", "start"]).status == 0)
    #expect(try daemon.control(["shift", "end"]).status == 0)
    let path = directory.appendingPathComponent("empty.svg").path
    #expect(try ShiftReportCommandTests.report(daemon, ["1", "-o", path]).status == 0)
    let (image, svg) = try Self.render(path, in: directory)
    let frame = try #require(svg.elements(ofClass: "map-frame").first)
    let x = Int(Double(frame.attributes["x"]!)!)
    let y = Int(Double(frame.attributes["y"]!)!)
    let width = Int(Double(frame.attributes["width"]!)!)
    let height = Int(Double(frame.attributes["height"]!)!)
    let sentence = try #require(svg.elements(ofClass: "empty").first)
    let baseline = Int(Double(sentence.attributes["y"]!)!)
    var inkOutsideTheSentence = 0
    var inkInTheSentence = 0
    for py in (y + 3)..<(y + height - 3) {
      for px in (x + 3)..<(x + width - 3) where image.luminance(x: px, y: py) < Self.ink {
        if py > baseline - 16 && py < baseline + 6 { inkInTheSentence += 1 } else { inkOutsideTheSentence += 1 }
      }
    }
    #expect(inkOutsideTheSentence == 0)
    #expect(inkInTheSentence > 100, "the sentence was not drawn")
  }
}
