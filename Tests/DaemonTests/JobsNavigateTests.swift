import DashPilotCore
import Foundation
import TestSupport
import Testing

/// `[Jobs] Navigate=yes`, all real: a real gpsd reads a receiver standing 150 s at job A on
/// Row 0 Street of the generated grid, then driving east to the corner of 5th Street and
/// standing there (job B). Once A is visited the daemon asks a real Valhalla for the way to
/// B, exactly as `navigate` does, names it to the driver, follows it, and says B's name on
/// arrival; the stop at B arrives B.
@Suite("the next job navigated to, against a real gpsd and Valhalla", .serialized, .requiresGPSD, .requiresValhalla)
struct JobsNavigateTests {
  /// Metres of longitude per degree on Row 0 Street (37.5° N).
  static let metresPerDegree = GeographicDistance.earthRadius * Double.pi / 180 * cos(37.5 * Double.pi / 180)

  static func longitude(east metres: Double) -> Double { 127 + metres / metresPerDegree }

  /// Stands 150 s 50 m east of the grid's corner, drives east at 10 m/s to 1,000 m (the
  /// corner of 5th Street), stands 180 s: RMC, GGA, GSA and GST once a second from
  /// 2024-05-01T10:00:00Z, after 100 lines' worth of no-fix sentences.
  static func nmea() -> String {
    var lines: [String] = []
    for _ in 0..<100 {
      lines.append(DaemonSteadyDrive.sentence("GPRMC,095959.00,V,,,,,,,010524,,,N"))
      lines.append(DaemonSteadyDrive.sentence("GPGGA,095959.00,,,,,0,00,99.9,,,,,,"))
    }
    var second = 0
    func fix(east: Double, knots: Double) {
      let seconds = 10 * 3600 + second
      let time = String(format: "%02d%02d%02d.00", seconds / 3600, (seconds / 60) % 60, seconds % 60)
      let minutes = (longitude(east: east) - 127) * 60
      let lon = String(format: "127%08.5f", minutes)
      let speed = String(format: "%.2f", knots)
      lines += [
        DaemonSteadyDrive.sentence("GPRMC,\(time),A,3730.00000,N,\(lon),E,\(speed),90.0,010524,,,A"),
        DaemonSteadyDrive.sentence("GPGGA,\(time),3730.00000,N,\(lon),E,1,09,0.9,35.0,M,47.0,M,,"),
        DaemonSteadyDrive.sentence("GPGSA,A,3,02,05,07,09,13,16,20,27,30,,,,1.4,0.9,1.1"),
        DaemonSteadyDrive.sentence("GPGST,\(time),2.7,2.7,2.7,0.0,2.7,2.7,4.0"),
      ]
      second += 1
    }
    for _ in 0..<150 { fix(east: 50, knots: 0) }
    for k in 1...95 { fix(east: 50 + Double(k) * 10, knots: 19.44) }
    for _ in 0..<180 { fix(east: 1_000, knots: 0) }
    return lines.joined(separator: "\n") + "\n"
  }

  @Test("A visited: B navigated to through Valhalla, its name said when planned and on arrival, B arrived")
  func nextJobNavigated() throws {
    let server = try GuidanceEngines.valhalla.get()
    let directory = try TestPaths.temporaryDirectory("jobs-navigate")
    defer { try? FileManager.default.removeItem(at: directory) }
    let file = directory.appendingPathComponent("jobs-drive.nmea")
    try Self.nmea().write(to: file, atomically: true, encoding: .utf8)
    let receiver = try GPSDPseudoReceiver(nmea: file, secondsPerLine: 0.005)
    defer { receiver.stop() }
    try receiver.startGPSD()
    let daemon = try DaemonUnderTest(
      config: "[Routing]\nURL=\(server.baseURL)\n[Jobs]\nNavigate=yes\n[Guidance]\nLanguage=english\n",
      arguments: ["--gpsd", "127.0.0.1:\(receiver.port)"])
    defer { _ = daemon.stop() }
    try daemon.waitUntilReady(timeout: 30)
    #expect(daemon.waitForStatus(timeout: 20) { $0.object("gpsd")?["connected"] as? Bool == true } != nil)
    #expect(
      try daemon.control(["jobs", "assign", "A-1", "Flowers, Row 0", "37.5,\(Self.longitude(east: 50))"]).status == 0)
    let corner = "37.5,127.0113357"
    #expect(try daemon.control(["jobs", "assign", "B-2", "Parcel, 5th Street", corner]).status == 0)
    #expect(try daemon.control(["shift", "start"]).status == 0)
    let events = try EventFollower(socketPath: daemon.socketPath)
    receiver.startFeeding()

    let arrivedB = events.wait(timeout: 60) {
      $0.type == "job.arrived" && ($0.fields["job"] as? [String: Any])?["id"] as? String == "B-2"
    }
    try #require(arrivedB != nil, "\(events.summary)\n\(daemon.log)")
    let asked = try #require(events.all("guidance.navigate_requested").first, "\(events.summary)")
    let destination = try #require(asked.fields["destination"] as? [String: Any])
    #expect(destination["lat"] as? Double == 37.5 && destination["lon"] as? Double == 127.0113357)
    let spoken = events.all("guidance.announcement").map(\.message)
    #expect(spoken == ["Next: Parcel, 5th Street.", "You've arrived at Parcel, 5th Street."], "\(events.summary)")
    // In order: A visited, then the way to B asked for, planned, followed to its end, B arrived.
    let order = events.events.map(\.type).filter {
      ["job.visited", "guidance.navigate_requested", "guidance.route_planned", "guidance.arrived", "job.arrived"]
        .contains($0)
    }
    #expect(
      order == [
        "job.arrived", "job.visited", "guidance.navigate_requested", "guidance.route_planned", "guidance.arrived",
        "job.arrived",
      ], "\(events.summary)")
    let planned = try #require(events.all("guidance.route_planned").first)
    #expect(planned.fields["source"] as? String == "valhalla")
  }
}
