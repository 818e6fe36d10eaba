import DashPilotCore
import Foundation
import TestSupport
import Testing

/// Places in a real daemon fed by a real gpsd: `DaemonStopsDrive` with a depot 105 m
/// around where it makes its 5-minute stop. The vehicle enters the depot, stands there and
/// leaves it (`place.entered`, `place.left` on `events`), and `shift show` names that stop by
/// the depot.
@Suite("places in a running daemon", .serialized, .requiresGPSD)
struct PlacesDaemonTests {
  /// `DaemonStopsDrive`'s second `k` as the JSON writes it.
  static func at(_ k: Int) -> String { UTCTimestamp.string(DaemonStopsDrive.time(k)) ?? "?" }

  /// Where the drive stands for 5 minutes: 1190 m north of 51°30' N, on 0°7.2' W.
  static let depotCentre = GeoCoordinate(latitude: 51 + 30.64255 / 60, longitude: -0.12)

  /// The depot, and a customer's yard the drive never reaches.
  static func writePlaces(in directory: URL) throws -> String {
    let path = directory.appendingPathComponent("places.geojson").path
    try """
    {"type":"FeatureCollection","features":[
    {"type":"Feature","geometry":{"type":"Point","coordinates":[-0.12,\(depotCentre.latitude)]},
     "properties":{"name":"Depot","kind":"depot","radius_m":105}},
    {"type":"Feature","geometry":{"type":"Point","coordinates":[-0.2,51.6]},
     "properties":{"name":"Yard","kind":"customer","radius_m":50}}]}
    """.write(toFile: path, atomically: true, encoding: .utf8)
    return path
  }

  @Test("entering and leaving the depot are events; the stop inside it is named by it in shift show")
  func enteredLeftAndNamed() throws {
    let directory = try TestPaths.temporaryDirectory("places-daemon")
    defer { try? FileManager.default.removeItem(at: directory) }
    let places = try Self.writePlaces(in: directory)
    let receiver = try GPSDPseudoReceiver(nmea: try DaemonStopsDrive.write(in: directory), secondsPerLine: 0.005)
    defer { receiver.stop() }
    try receiver.startGPSD()
    let daemon = try DaemonUnderTest(
      config: "[Places]\nFile=\(places)\n", arguments: ["--gpsd", "127.0.0.1:\(receiver.port)"])
    defer { daemon.stop() }
    try daemon.waitUntilReady()
    #expect(daemon.log.contains("places: 2 read from \(places)"))
    #expect(daemon.waitForStatus(timeout: 20) { $0.object("gpsd")?["connected"] as? Bool == true } != nil)
    #expect(try daemon.control(["shift", "start"]).status == 0)
    let events = try EventFollower(socketPath: daemon.socketPath)
    receiver.startFeeding()
    let recorded = daemon.waitUntilRecorded(through: DaemonStopsDrive.lastFix)
    try #require(recorded != nil, "the drive was not recorded: \(daemon.log)")

    // 10 m a second north into the depot: the first fix inside is 1090 m north, 100.1 m from
    // its centre (second 109); the first beyond 105 m and the 20 m margin is 1320 m north
    // (second 432). Each is confirmed 5 s later; nothing else is crossed.
    #expect(events.wait(for: "place.left", timeout: 30) != nil, "\(events.summary)")
    let crossings = events.events.filter { $0.type.hasPrefix("place.") }
    #expect(crossings.map(\.type) == ["place.entered", "place.left"], "\(events.summary)")
    #expect(crossings.map { $0.string("fix_time") } == [Self.at(109), Self.at(432)])
    #expect(crossings.map { $0.string("place") } == ["Depot", "Depot"])
    #expect(crossings.map { $0.string("kind") } == ["depot", "depot"])
    #expect(crossings.first?.message == "entered Depot (depot) at \(Self.at(109))")
    #expect(crossings.last?.message == "left Depot (depot) at \(Self.at(432))")
    #expect(daemon.log.contains("entered Depot (depot) at \(Self.at(109))"))
    #expect(try daemon.control(["shift", "end"]).status == 0)

    let detail = try daemon.controlJSON(["shift", "show", "1"])
    let stops = try #require(detail["stops"] as? [[String: Any]])
    #expect(stops.map { $0["arrival"] as? String } == [Self.at(119), Self.at(1019)])
    #expect(stops.first?["place"] as? String == "Depot")
    #expect(stops.last?["place"] is NSNull)
    let shown = try daemon.control(["shift", "show", "1"], environment: ["TZ": "UTC"])
    #expect(shown.status == 0, "\(shown.standardError)")
    #expect(shown.standardOutput.contains("\n    stop 1 10:01–10:07 (5 min) at Depot\n"), "\(shown.standardOutput)")
  }

  @Test("[Shift] EndAtPlace=Depot: a hands-free shift ends 2 min into the stop at the depot, at its last moving fix")
  func shiftEndsAtTheDepot() throws {
    let directory = try TestPaths.temporaryDirectory("places-end")
    defer { try? FileManager.default.removeItem(at: directory) }
    let places = try Self.writePlaces(in: directory)
    let receiver = try GPSDPseudoReceiver(nmea: try DaemonStopsDrive.write(in: directory), secondsPerLine: 0.005)
    defer { receiver.stop() }
    try receiver.startGPSD()
    let daemon = try DaemonUnderTest(
      config: "[Places]\nFile=\(places)\n[Shift]\nStart=movement\nEndAtPlace=Depot\n",
      arguments: ["--gpsd", "127.0.0.1:\(receiver.port)"])
    defer { daemon.stop() }
    try daemon.waitUntilReady()
    #expect(daemon.waitForStatus(timeout: 20) { $0.object("gpsd")?["connected"] as? Bool == true } != nil)
    let events = try EventFollower(socketPath: daemon.socketPath)
    receiver.startFeeding()
    // The 5-minute stop at the depot ends the first shift (not 45 minutes); the drive on
    // from it starts the second, which the rest of the drive stays in.
    let ended = try #require(events.wait(for: "shift.ended", timeout: 120), "\(events.summary)\n\(daemon.log)")
    #expect(ended.string("ended_by") == "stopped_at_place")
    #expect(ended.string("ended_at") == Self.at(119))
    #expect(ended.number("shift") == 1)
    #expect(
      ended.message.hasPrefix(
        "shift 1 ended after a stop at Depot: the vehicle stood still there for 2 min; it ends at its last moving fix, "
          + "\(Self.at(119)): "), "\(ended.message)")
    #expect(
      events.wait(timeout: 120) { $0.type == "shift.started" && $0.number("shift") == 2 } != nil, "\(events.summary)")
    // The stand that ended shift 1 is in no shift: leaving it tells no stop (stop.ended
    // comes as the vehicle leaves, before the drive on is long enough to start shift 2).
    #expect(events.all("stop.ended").isEmpty, "\(events.summary)")
    let shifts = try daemon.controlJSON(["shifts"])
    let rows = try #require(shifts["shifts"] as? [[String: Any]])
    let first = try #require(rows.first { $0["id"] as? Int == 1 })
    #expect(first["ended_by"] as? String == "stopped_at_place")
    #expect(first["ended_at"] as? String == Self.at(119))
  }

  @Test(
    "places.load: refused whole when malformed; else written over the file, in effect at once, kept across a restart")
  func placesLoad() throws {
    let directory = try TestPaths.temporaryDirectory("places-load")
    defer { try? FileManager.default.removeItem(at: directory) }
    let places = try Self.writePlaces(in: directory)
    let original = try String(contentsOfFile: places, encoding: .utf8)
    let receiver = try GPSDPseudoReceiver(nmea: try DaemonStopsDrive.write(in: directory), secondsPerLine: 0.005)
    defer { receiver.stop() }
    try receiver.startGPSD()
    let config = "[Places]\nFile=\(places)\n"
    let database = directory.appendingPathComponent("load.sqlite").path
    let daemon = try DaemonUnderTest(
      config: config, arguments: ["--gpsd", "127.0.0.1:\(receiver.port)"], databasePath: database)
    defer { daemon.stop() }
    try daemon.waitUntilReady()
    let client = try RawSocketClient(path: daemon.socketPath)

    // A misspelt kind: refused with the reader's words, and the file left as it was.
    let bad =
      #"{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"Point","coordinates":[-0.12,51.5]},"properties":{"name":"Home","kind":"privat","radius_m":50}}]}"#
    let refused = try #require(client.ask(#"{"v":1,"id":1,"cmd":"places.load","args":{"geojson":\#(bad)}}"#))
    #expect(refused["ok"] as? Bool == false)
    let error = try #require(refused["error"] as? [String: Any])
    #expect(error["code"] as? String == "bad_arguments")
    #expect(
      error["message"] as? String
        == #"places.load: feature 1 ("Home"): has kind "privat", which is none of depot, customer, fuel, rest, "#
        + "private, other; the places were not changed")
    #expect(try String(contentsOfFile: places, encoding: .utf8) == original)

    // The red light (60 s standing, 2390 m north) as the one place: in effect for the drive.
    let lightsLatitude = 51 + (30 + 2390 / 1852.0) / 60
    let lights =
      #"{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"Point","coordinates":[-0.12,"#
      + "\(lightsLatitude)" + #"]},"properties":{"name":"Lights","kind":"other","radius_m":50}}]}"#
    let loaded = try #require(client.ask(#"{"v":1,"id":2,"cmd":"places.load","args":{"geojson":\#(lights)}}"#))
    #expect(loaded["ok"] as? Bool == true, "\(loaded)")
    let result = try #require(loaded["result"] as? [String: Any])
    #expect(result["file"] as? String == places)
    #expect(result["places"] as? [String] == ["Lights"])
    // dashpilotctl places load FILE: the same, read first by the CLI, which names the file.
    let file = directory.appendingPathComponent("lights.geojson")
    try lights.write(to: file, atomically: true, encoding: .utf8)
    let cli = try daemon.control(["places", "load", file.path])
    #expect(cli.status == 0, "\(cli.standardError)")
    #expect(cli.standardOutput == "Places loaded into \(places) (1 place: Lights).\n")
    let badFile = directory.appendingPathComponent("bad.geojson")
    try bad.write(to: badFile, atomically: true, encoding: .utf8)
    let refusedByCLI = try daemon.control(["places", "load", badFile.path])
    #expect(refusedByCLI.status == 1)
    #expect(
      refusedByCLI.standardError
        == "dashpilotctl: cannot load places: \(badFile.path): feature 1 (\"Home\"): has kind \"privat\", which is none "
        + "of depot, customer, fuel, rest, private, other\n")
    // Sent as an object, written as its JSON text: read back, the one place sent.
    let written = try PlacesFile.places(from: Array(try Data(contentsOf: URL(fileURLWithPath: places))), file: places)
    #expect(written.map(\.name) == ["Lights"])
    #expect(
      written.first?.area == .circle(centre: GeoCoordinate(latitude: lightsLatitude, longitude: -0.12), radius: 50))
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.contains(".new-") } == [])

    let events = try EventFollower(socketPath: daemon.socketPath)
    #expect(try daemon.control(["shift", "start"]).status == 0)
    receiver.startFeeding()
    #expect(events.wait(for: "place.left", timeout: 120) != nil, "\(events.summary)")
    let crossings = events.events.filter { $0.type.hasPrefix("place.") }
    #expect(
      crossings.map { "\($0.type) \($0.string("place") ?? "?")" } == ["place.entered Lights", "place.left Lights"])
    daemon.stop()

    // The next start reads the file places.load wrote.
    let again = try DaemonUnderTest(config: config, databasePath: database)
    defer { again.stop() }
    try again.waitUntilReady()
    #expect(again.log.contains("places: 1 read from \(places)"))
  }
}
