import DashPilotCore
import Foundation
import ShiftReport
import TestSupport
import Testing

/// The delivery day in the report, all real: a real gpsd plays `DaemonStopsDrive` (its
/// 5-minute stop inside the depot of `PlacesDaemonTests.writePlaces`), the real daemon
/// has two jobs assigned over its socket (one at the depot, one 5 km away), the real
/// `dashpilotctl report` draws the shift, and Debian's Chromium renders it to pixels.
@Suite("the delivery day in a report rendered by a real browser", .serialized, .requiresGPSD, .requiresChromium)
struct ShiftReportDayBrowserTests {
  @Test("stops numbered as shift show numbers them, the job visited at stop 1, the depot drawn; readable in grey")
  func deliveryDay() throws {
    let directory = try TestPaths.temporaryDirectory("report-day")
    defer { try? FileManager.default.removeItem(at: directory) }
    let places = try PlacesDaemonTests.writePlaces(in: directory)
    let receiver = try GPSDPseudoReceiver(nmea: try DaemonStopsDrive.write(in: directory), secondsPerLine: 0.005)
    defer { receiver.stop() }
    try receiver.startGPSD()
    let daemon = try DaemonUnderTest(
      config: "[Places]\nFile=\(places)\n", arguments: ["--gpsd", "127.0.0.1:\(receiver.port)"])
    defer { daemon.stop() }
    try daemon.waitUntilReady()
    #expect(daemon.waitForStatus(timeout: 20) { $0.object("gpsd")?["connected"] as? Bool == true } != nil)
    // 30 m north of where the drive stands 5 minutes; 5 km east of it, never reached.
    let near = FleetJobsTests.position(north: 1_220)
    let far = FleetJobsTests.position(north: 1_190, east: 5_000)
    for (id, name, at) in [("A-1", "Flowers, 12 High St", near), ("C-3", "Returns, Far Lane", far)] {
      let assigned = try daemon.control(["jobs", "assign", id, name, "\(at.lat),\(at.lon)"])
      #expect(assigned.status == 0, "\(assigned.standardError)")
    }
    #expect(try daemon.control(["shift", "start"]).status == 0)
    let events = try EventFollower(socketPath: daemon.socketPath)
    receiver.startFeeding()
    try #require(daemon.waitUntilRecorded(through: DaemonStopsDrive.lastFix) != nil, "\(daemon.log)")
    #expect(events.wait(for: "job.visited", timeout: 30) != nil, "\(events.summary)")
    #expect(try daemon.control(["shift", "end"]).status == 0)

    let path = directory.appendingPathComponent("shift-1.svg").path
    let written = try ShiftReportCommandTests.report(daemon, ["1", "-o", path])
    #expect(written.status == 0, "\(written.standardError)")
    let (image, svg) = try ShiftReportBrowserTests.render(path, in: directory)
    let json = try ShiftReportCommandTests.report(daemon, ["1", "-o", path, "--json"])
    let answer = try #require(try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
    #expect(answer["stops"] as? Int == 2 && answer["jobs_visited"] as? Int == 1 && answer["places"] as? Int == 1)

    // The words: the stops exactly as `shift show` lists them, the jobs in its order with
    // the stop that visited A-1, the depot drawn and named (the yard, 10 km off, is not).
    let shown = try daemon.control(["shift", "show", "1"], environment: ["TZ": "UTC"])
    let lines = shown.standardOutput.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
    let stopsFrom = try #require(lines.firstIndex(of: "2 stops of 2 min or more"), "\(lines)")
    let stopLines = Array(lines[stopsFrom...(stopsFrom + 2)])
    #expect(stopLines[1] == "stop 1 10:01–10:07 (5 min) at Depot")
    #expect(stopLines[2].hasPrefix("stop 2 10:16–") && stopLines[2].hasSuffix(" · still stopped when the shift ended"))
    #expect(svg.elements(ofClass: "stop-line").map(\.text) == stopLines)
    let jobsFrom = try #require(lines.firstIndex(of: "Jobs:"), "\(lines)")
    let jobLines = Array(lines[(jobsFrom + 1)...(jobsFrom + 2)])
    #expect(jobLines[0] == "A-1 Flowers, 12 High St: visited, stood 5 min (10:01–10:07), 30 m from it")
    #expect(jobLines[1].hasPrefix("C-3 Returns, Far Lane: not reached (at "))
    #expect(
      svg.elements(ofClass: "job-line").map(\.text) == ["Jobs:", jobLines[0] + ", at stop 1", jobLines[1]])
    #expect(svg.elements(ofClass: "place-line").map(\.text) == ["Places drawn: Depot (depot)"])
    let lastDuration = try #require(stopLines[2].split(separator: "(").last?.split(separator: ")").first)
    #expect(svg.elements(ofClass: "stop-label").map(\.text) == ["1 · 5 min", "2 · \(lastDuration)"])
    #expect(svg.elements(ofClass: "job-label").map(\.text) == ["job A-1 · stop 1"])
    #expect(svg.elements(ofClass: "place-label").map(\.text) == ["Depot (depot)"])
    #expect(svg.elements(ofClass: "place").count == 1)

    // The pixels. Stop 1's diamond is white inside over the black line it stands on.
    let diamonds = svg.elements(ofClass: "stop").map { SVGDocument.numbers(inPath: $0.attributes["d"] ?? "") }
    try #require(diamonds.count == 2 && diamonds.allSatisfy { $0.count == 8 })
    let stop1 = (x: diamonds[0][0], y: diamonds[0][3])
    #expect(image.luminance(x: Int(stop1.x.rounded()), y: Int(stop1.y.rounded())) >= ShiftReportBrowserTests.paper)
    #expect(image.darkest(x: Int(stop1.x.rounded()), y: Int(stop1.y.rounded()) - 6, radius: 1) <= 120)
    // The job's open triangle around it: ink at its two lower corners, off the line.
    let triangle = SVGDocument.numbers(inPath: svg.elements(ofClass: "job").first?.attributes["d"] ?? "")
    try #require(triangle.count == 6)
    for corner in [(triangle[2], triangle[3]), (triangle[4], triangle[5])] {
      #expect(image.darkest(x: Int(corner.0.rounded()), y: Int(corner.1.rounded()), radius: 1) <= 120, "\(corner)")
    }
    // Each badge: black, with white figures in it: its number reads without colour.
    for badge in svg.elements(ofClass: "stop-badge") {
      let box = try #require(
        ["x", "y", "width", "height"].compactMap { Double(badge.attributes[$0] ?? "") }.count == 4
          ? ReportRect(
            x: Double(badge.attributes["x"]!)!, y: Double(badge.attributes["y"]!)!,
            width: Double(badge.attributes["width"]!)!, height: Double(badge.attributes["height"]!)!) : nil)
      var dark = 0
      var light = 0
      var all = 0
      for y in Int(box.y.rounded(.up))..<Int((box.y + box.height).rounded(.down)) {
        for x in Int(box.x.rounded(.up))..<Int((box.x + box.width).rounded(.down)) {
          let value = image.luminance(x: x, y: y)
          all += 1
          if value <= 60 { dark += 1 }
          if value >= 200 { light += 1 }
        }
      }
      #expect(dark * 2 >= all, "badge \(box): \(dark) of \(all) dark")
      #expect(light >= 25, "badge \(box): only \(light) light pixels: no figures in it?")
    }
    // The depot's pale fill around stop 1, and none of it 1 km further north on the line.
    let elsewhere = (x: stop1.x, y: stop1.y - (stop1.y - diamonds[1][3]) / 2)
    func pale(around p: (x: Double, y: Double)) -> Int {
      var count = 0
      for dy in -8...8 {
        for dx in -8...8 where dx * dx + dy * dy <= 64 {
          let value = image.luminance(x: Int(p.x.rounded()) + dx, y: Int(p.y.rounded()) + dy)
          if (234...242).contains(value) { count += 1 }
        }
      }
      return count
    }
    #expect(pale(around: stop1) >= 20, "the depot's fill: \(pale(around: stop1)) pale pixels")
    #expect(pale(around: elsewhere) <= 3, "pale pixels where no place is: \(pale(around: elsewhere))")
    // Still greyscale, every pixel.
    var coloured = 0
    for y in stride(from: 0, to: image.height, by: 2) {
      for x in stride(from: 0, to: image.width, by: 2) where !image.isGrey(x: x, y: y) { coloured += 1 }
    }
    #expect(coloured == 0)
  }
}
