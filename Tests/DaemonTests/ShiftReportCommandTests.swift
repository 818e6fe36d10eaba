import DashPilotCore
import Foundation
import ShiftReport
import TestSupport
import Testing

/// `dashpilotctl report` against the real daemon over the real socket, on a shift written
/// to a real database as capture writes one: the SVG read back by an XML parser, its words
/// exact, and (where Chromium is installed) rendered by the real browser to pixels.
@Suite("dashpilotctl report over the real socket", .serialized)
struct ShiftReportCommandTests {
  static let partialSentence = "This is a partial route: capture was interrupted, so more was driven than was recorded."

  /// A daemon on the gapped shift's database, and where the test may write.
  static func daemonWithGappedShift(_ name: String) throws -> (DaemonUnderTest, URL) {
    let directory = try TestPaths.temporaryDirectory(name)
    let database = directory.appendingPathComponent("gaps.sqlite").path
    try GappedShiftFixture().write(to: database)
    let daemon = try DaemonUnderTest(arguments: ["--database", database])
    try daemon.waitUntilReady()
    return (daemon, directory)
  }

  static func report(_ daemon: DaemonUnderTest, _ arguments: [String]) throws -> ProcessOutcome {
    try daemon.control(["report"] + arguments, environment: ["TZ": "UTC"])
  }

  @Test("the gapped shift: a solid path per stretch, a dashed line per gap, every label and line in its words")
  func gappedShift() throws {
    let (daemon, directory) = try Self.daemonWithGappedShift("report-svg")
    defer {
      daemon.stop()
      try? FileManager.default.removeItem(at: directory)
    }
    let path = directory.appendingPathComponent("shift-1.svg").path
    let written = try Self.report(daemon, ["1", "-o", path])
    #expect(written.status == 0, "\(written.standardError)")
    let size = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
    #expect(written.standardOutput == "Wrote shift #1's report to \(path) (\(max(1, (size + 500) / 1000)) KB).\n")
    let svg = try SVGDocument(String(contentsOfFile: path, encoding: .utf8))

    #expect(svg.elements(ofClass: "stretch").count == 5)
    #expect(svg.elements(ofClass: "lone-position").isEmpty)
    let gaps = svg.elements(ofClass: "gap")
    #expect(gaps.count == 4)
    #expect(gaps.allSatisfy { $0.attributes["stroke-dasharray"] != nil })
    #expect(svg.elements(ofClass: "stretch").allSatisfy { $0.attributes["stroke-dasharray"] == nil })
    #expect(
      svg.elements(ofClass: "gap-label").map(\.text) == [
        "not counted 08:15–08:22 (7 min)", "not counted 08:30–08:33 (3 min)", "not counted 08:40–08:44 (4 min)",
        "not counted 08:50–08:52 (2 min)",
      ])
    #expect(svg.elements(ofClass: "start-label").map(\.text) == ["start 08:05"])
    #expect(svg.elements(ofClass: "start-note").map(\.text) == ["not counted 08:00–08:05 (5 min)"])
    #expect(svg.elements(ofClass: "end-label").map(\.text) == ["end 08:55"])
    #expect(svg.elements(ofClass: "end-note").map(\.text) == ["not counted 08:55–09:00 (5 min)"])
    #expect(svg.elements(ofClass: "title").map(\.text) == ["Shift #1 · Tue 14 Nov 2023 08:00–09:00"])
    #expect(svg.elements(ofClass: "summary").map(\.text) == ["12.7 mi recorded · partial route"])
    #expect(
      svg.elements(ofClass: "line").map(\.text)
        == ["5 unbroken stretches of capture", "6 capture gaps"] + GappedShiftFixture.gapLines + [Self.partialSentence])
    #expect(svg.elements(ofClass: "route").isEmpty && svg.elements(ofClass: "off-route").isEmpty)
    // The legend keys what is drawn, and nothing else.
    #expect(svg.elements(ofClass: "legend-gap").count == 1)
    #expect(svg.elements(ofClass: "legend-route").isEmpty && svg.elements(ofClass: "legend-off-route").isEmpty)

    let json = try Self.report(daemon, ["1", "-o", path, "--json"])
    let answer = try #require(try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
    #expect(answer["path"] as? String == path)
    #expect(answer["bytes"] as? Int == size)
    #expect(answer["stretches"] as? Int == 5)
    #expect(answer["gaps"] as? Int == 6)
    #expect(answer["gaps_drawn"] as? Int == 4)
    #expect(answer["departures"] is NSNull || answer["departures"] == nil)
  }

  @Test("a route: drawn underneath in grey, and the one confirmed departure marked with its time")
  func withRoute() throws {
    let (daemon, directory) = try Self.daemonWithGappedShift("report-route")
    defer {
      daemon.stop()
      try? FileManager.default.removeItem(at: directory)
    }
    // The route follows the first stretch east for 3 km, then turns north; the car drove on.
    let origin = GeoCoordinate(latitude: 51.5, longitude: -0.12)
    let corner = GeographicDistance.destination(from: origin, bearing: 90, distance: 3000)
    let end = GeographicDistance.destination(from: corner, bearing: 0, distance: 6000)
    let coordinates = [origin, corner, end].map { "[\($0.longitude),\($0.latitude)]" }.joined(separator: ",")
    let routeFile = directory.appendingPathComponent("route.geojson")
    try #"{"type":"LineString","coordinates":[\#(coordinates)]}"#.write(
      to: routeFile, atomically: true, encoding: .utf8)
    let path = directory.appendingPathComponent("route.svg").path
    let written = try Self.report(daemon, ["1", "-o", path, "--route", routeFile.path])
    #expect(written.status == 0, "\(written.standardError)")
    let svg = try SVGDocument(String(contentsOfFile: path, encoding: .utf8))
    #expect(svg.elements(ofClass: "route").count == 1)
    #expect(svg.elements(ofClass: "route").first?.attributes["stroke"] == "#c4c4c4")
    // 50 m past the corner is the first miss (08:10:05); the third, 10 s on, confirms it.
    #expect(svg.elements(ofClass: "off-route-label").map(\.text) == ["off route 08:10"])
    #expect(svg.elements(ofClass: "off-route").count == 1)
    #expect(svg.elements(ofClass: "legend-route").count == 1 && svg.elements(ofClass: "legend-off-route").count == 1)
    #expect(
      svg.elements(ofClass: "line").last?.text
        == "Route route.geojson (driving): guidance confirmed 1 departure from it, marked ×.")
    // The elements are drawn bottom to top: the route first, under every stretch.
    let order = svg.elements.compactMap(\.className)
    #expect(order.firstIndex(of: "route")! < order.firstIndex(of: "stretch")!)
  }

  @Test("a shift with no usable position: the report says so and draws nothing")
  func nothingRecorded() throws {
    let directory = try TestPaths.temporaryDirectory("report-empty")
    defer { try? FileManager.default.removeItem(at: directory) }
    let daemon = try DaemonUnderTest()
    defer { daemon.stop() }
    try daemon.waitUntilReady()
    #expect(try daemon.control(["shift", "start"]).status == 0)
    #expect(try daemon.control(["shift", "end"]).status == 0)
    let path = directory.appendingPathComponent("empty.svg").path
    let written = try Self.report(daemon, ["1", "-o", path])
    #expect(written.status == 0, "\(written.standardError)")
    let svg = try SVGDocument(String(contentsOfFile: path, encoding: .utf8))
    let nothing = "No distance measured: no usable position was recorded"
    #expect(svg.elements(ofClass: "empty").map(\.text) == [nothing])
    #expect(svg.elements(ofClass: "summary").map(\.text) == [nothing])
    #expect(svg.elements(ofClass: "line").isEmpty)
    #expect(svg.elements.filter { ["path", "line", "circle", "polyline", "polygon"].contains($0.name) }.isEmpty)
  }

  @Test("an unknown shift and a route guidance cannot follow are refused in words")
  func refusals() throws {
    let (daemon, directory) = try Self.daemonWithGappedShift("report-refused")
    defer {
      daemon.stop()
      try? FileManager.default.removeItem(at: directory)
    }
    let unknown = try Self.report(daemon, ["9", "-o", directory.appendingPathComponent("x.svg").path])
    #expect(unknown.status == 1)
    #expect(unknown.standardError == "dashpilotctl: dashpilotd refused: no shift with id 9 (not_found)\n")
    let client = try RawSocketClient(path: daemon.socketPath)
    let onePoint = try #require(
      client.ask(#"{"v":1,"id":1,"cmd":"report","args":{"id":1,"route":[{"lat":51.5,"lon":-0.12}]}}"#))
    #expect(onePoint.errorCode == "bad_arguments")
    #expect(
      onePoint.errorMessage
        == "report: the route cannot be followed: a route needs at least 2 distinct points, this one has 1")
    #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("x.svg").path))
  }
}
