import DashPilotCore
import Foundation
import TestSupport
import Testing

/// A private place (a driver's home) through a real gpsd and `dashpilotd`, on a real file:
/// `DaemonStopsDrive` drives north into a private place of 105 m around where it stands 5
/// minutes, stands there, and drives out. No position inside it is stored: the file holds
/// none within it or the 20 m margin the car leaves by, the time there is a gap whose cause
/// is "private place" (never counted), and no stop is told or listed there.
@Suite("a private place records nothing, against a real gpsd", .serialized, .requiresGPSD)
struct PrivatePlaceDaemonTests {
  static func writePlaces(in directory: URL) throws -> String {
    let path = directory.appendingPathComponent("places.geojson").path
    try """
    {"type":"FeatureCollection","features":[
    {"type":"Feature","geometry":{"type":"Point","coordinates":[-0.12,\(PlacesDaemonTests.depotCentre.latitude)]},
     "properties":{"name":"Home","kind":"private","radius_m":105}}]}
    """.write(toFile: path, atomically: true, encoding: .utf8)
    return path
  }

  @Test("nothing stored inside; the time there is a gap caused by the private place; no stop there")
  func nothingRecordedInside() throws {
    let directory = try TestPaths.temporaryDirectory("private-place")
    defer { try? FileManager.default.removeItem(at: directory) }
    let places = try Self.writePlaces(in: directory)
    let database = directory.appendingPathComponent("dashpilot.sqlite").path
    let receiver = try GPSDPseudoReceiver(nmea: try DaemonStopsDrive.write(in: directory), secondsPerLine: 0.005)
    defer { receiver.stop() }
    try receiver.startGPSD()
    let daemon = try DaemonUnderTest(
      config: "[Places]\nFile=\(places)\n", arguments: ["--gpsd", "127.0.0.1:\(receiver.port)"],
      databasePath: database)
    defer { _ = daemon.stop() }
    try daemon.waitUntilReady()
    #expect(daemon.waitForStatus(timeout: 20) { $0.object("gpsd")?["connected"] as? Bool == true } != nil)
    #expect(try daemon.control(["shift", "start"]).status == 0)
    let events = try EventFollower(socketPath: daemon.socketPath)
    receiver.startFeeding()
    // Capture's counts are the session's (two here): the last fix seen is enough, since
    // ending the shift writes what is pending.
    let seen = daemon.waitForStatus(timeout: 120) { status in
      (status.object("gpsd")?["last_fix_at"] as? String).flatMap { UTCTimestamp.parse($0) }.map {
        $0 >= DaemonStopsDrive.lastFix
      }
        ?? false
    }
    try #require(seen != nil, "\(daemon.log)")
    #expect(try daemon.control(["shift", "end"]).status == 0)
    #expect(events.wait(for: "shift.ended", timeout: 30) != nil, "\(events.summary)")

    // 10 m a second north: the first fix inside is 1090 m north, 100.1 m from the centre
    // (second 109); the first beyond 105 m and the 20 m margin is 1320 m north (second 432),
    // which begins a new session (its first fix is judged from nothing kept, and refused as
    // unconfirmed movement: the first kept is second 433).
    let centre = PlacesDaemonTests.depotCentre
    let rows = try DaemonDatabaseProbe.query(
      database, "SELECT latitude_e7, longitude_e7, fix_time_ms FROM samples ORDER BY fix_time_ms")
    let positions = rows.map { row in
      let fields = row.split(separator: "|").map { Double($0) ?? .nan }
      return (GeoCoordinate(latitude: fields[0] / 1e7, longitude: fields[1] / 1e7), fields[2] / 1000)
    }
    #expect(positions.count > 100)
    let nearest = positions.map { GeographicDistance.metres(from: centre, to: $0.0) }.min() ?? 0
    // The last kept before the place: 1080 m north, 110.1 m from the centre.
    #expect(abs(nearest - 110.08) < 0.01, "a stored position lies \(nearest) m from the centre")
    let times = positions.map(\.1)
    let start = DaemonStopsDrive.start.timeIntervalSince1970
    #expect(times.contains(start + 108) && times.contains(start + 433))
    #expect(!times.contains { $0 > start + 108 && $0 < start + 433 })

    let detail = try daemon.controlJSON(["shift", "show", "1"])
    let gaps = try #require(detail["gaps"] as? [[String: Any]])
    let home = try #require(gaps.first { $0["cause"] as? String == "private place" }, "\(gaps)")
    #expect(home["from"] as? String == PlacesDaemonTests.at(108))
    #expect(home["to"] as? String == PlacesDaemonTests.at(433))
    let stops = try #require(detail["stops"] as? [[String: Any]])
    #expect(stops.map { $0["arrival"] as? String } == [PlacesDaemonTests.at(1019)], "\(stops)")
    // The stand the drive ends in, cut by the shift's end: the only stop.
    #expect(events.all("stop.ended").count == 1)
    #expect(
      events.all("capture.session_ended").first?.string("reason")
        == "entered a private place, where nothing is recorded",
      "\(events.summary)")
    // The report lists the private place's gap but draws no line across the place: the
    // one dashed line is the 180 s silence's.
    let report = try daemon.control(["report", "1", "-o", "-"], environment: ["TZ": "UTC"])
    #expect(report.status == 0, "\(report.standardError)")
    #expect(report.standardOutput.components(separatedBy: "class=\"gap\"").count - 1 == 1)
    #expect(report.standardOutput.contains("gap 10:01–10:07 (5 min): private place"))
    let counts = try daemon.controlJSON(["report", "1", "-o", directory.appendingPathComponent("r.svg").path, "--json"])
    #expect(counts["gaps"] as? Int == 2 && counts["gaps_drawn"] as? Int == 1, "\(counts)")
    let shown = try daemon.control(["shift", "show", "1"], environment: ["TZ": "UTC"])
    #expect(shown.standardOutput.contains("\n  gap 10:01–10:07 (5 min): private place\n"), "\(shown.standardOutput)")
  }
}
