import Foundation
import TestSupport
import Testing

/// `route.load` over MQTT with the route inline, all real: a dispatcher of mosquitto's own
/// clients sends a route file's text through a real mosquitto to `dashpilotd`, which reads
/// it with RouteFiles, the reader of `dashpilotctl route load FILE`. So the reply carries
/// the result the socket gives for the same file, and a bad text is refused with the words
/// the CLI uses for a file holding it, the argument named where the CLI names the file.
@Suite(
  "route.load over MQTT with the route inline, against a real mosquitto", .serialized, .requiresMosquitto,
  .requiresSharedRealLogs)
struct FleetInlineRouteTests {
  typealias Rig = FleetRig

  /// A real logger's recording (gpsbabel, Holux M-241, a drive round a loop): 400 KB of GPX,
  /// far over the socket's 64 KiB line, within the fleet's 1 MiB.
  static let realGPX = TestPaths.shared.appendingPathComponent("real-logs/gpsbabel_holux_m241_car_loop.gpx")
  static let geojsonFile = TestPaths.fixtures.appendingPathComponent("routes/short-drive-divergent.geojson")

  /// A `route.load` command carrying `text` in `argument`, as one line of JSON.
  static func command(_ id: String, name: String? = nil, _ argument: String, _ text: String) throws -> String {
    var args: [String: Any] = [argument: text]
    if let name { args["name"] = name }
    let object: [String: Any] = ["v": 1, "id": id, "cmd": "route.load", "args": args]
    return String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self)
  }

  /// What `dashpilotctl route load FILE --json` answered, as an object.
  static func cliResult(_ daemon: DaemonUnderTest, _ file: URL) throws -> NSDictionary {
    let outcome = try daemon.control(["route", "load", file.path, "--json"])
    guard outcome.status == 0,
      let object = try JSONSerialization.jsonObject(with: Data(outcome.standardOutput.utf8)) as? NSDictionary
    else { throw DaemonTestFailure("route load \(file.lastPathComponent) failed: \(outcome)") }
    return object
  }

  @Test("args.gpx (a real logger's 400 KB file) and args.geojson load the route the CLI loads, with its result")
  func loadsAsTheCLIDoes() throws {
    let gpx = try String(contentsOf: Self.realGPX, encoding: .utf8)
    #expect(gpx.utf8.count == 400_677)
    let rig = try Rig("fleet-inline")
    defer { rig.stop() }
    let daemon = try rig.startDaemon()
    defer { daemon.stop() }

    // The socket's answer for the file, through dashpilotctl (which reads the file itself).
    let fromSocket = try Self.cliResult(daemon, Self.realGPX)
    #expect(fromSocket["points"] as? Int == 1_194)
    #expect(fromSocket["source"] as? String == "file")
    let file = rig.directory.appendingPathComponent("gpx-command.json")
    try Data(try Self.command("office-gpx-1", name: Self.realGPX.lastPathComponent, "gpx", gpx).utf8).write(to: file)
    try rig.send(contentsOf: file)
    let reply = try #require(rig.dispatcher.reply(to: "office-gpx-1"), "\(daemon.log)")
    #expect(reply.ok == true)
    #expect(reply.result as NSDictionary? == fromSocket)

    // A GeoJSON Feature, sent as an object.
    let fromSocketGeoJSON = try Self.cliResult(daemon, Self.geojsonFile)
    #expect(fromSocketGeoJSON["points"] as? Int == 3)
    let feature = try String(contentsOf: Self.geojsonFile, encoding: .utf8).trimmingCharacters(in: .newlines)
    rig.send(
      Rig.command(
        "office-geojson-2", "route.load", args: #"{"name":"short-drive-divergent.geojson","geojson":\#(feature)}"#))
    let geojsonReply = try #require(rig.dispatcher.reply(to: "office-geojson-2"), "\(daemon.log)")
    #expect(geojsonReply.ok == true)
    #expect(geojsonReply.result as NSDictionary? == fromSocketGeoJSON)
    // The route now followed is the last one loaded.
    let status = daemon.waitForStatus(timeout: 10) { $0.object("guidance")?["source"] as? String == "file" }
    #expect(status?.object("guidance")?["destination"] as? [String: Double] == ["lat": 48.8546765, "lon": 2.35])
  }

  @Test("a bad text gets the CLI's words for a file holding it, naming the argument where the CLI names the file")
  func badTextAsTheCLISaysIt() throws {
    let rig = try Rig("fleet-inline-bad")
    defer { rig.stop() }
    let daemon = try rig.startDaemon()
    defer { daemon.stop() }
    let cases: [(id: String, argument: String, file: String, text: String, problem: String)] = [
      ("bad-gpx-1", "gpx", "broken.gpx", "<gpx", "is not XML (the document ends inside <gpx>)"),
      (
        "bad-gpx-2", "gpx", "lonely.gpx", #"<gpx version="1.1"><rte><rtept lat="48.85" lon="2.35"/></rte></gpx>"#,
        "holds 1 point; a route or track needs at least two"
      ),
      (
        "bad-geojson-3", "geojson", "point.geojson", #"{"type":"Point","coordinates":[2.35,48.85]}"#,
        #"GeoJSON type "Point" is not a route (expected LineString, MultiLineString, or a Feature or FeatureCollection holding one)"#
      ),
    ]
    for entry in cases {
      let file = rig.directory.appendingPathComponent(entry.file)
      try Data(entry.text.utf8).write(to: file)
      let cli = try daemon.control(["route", "load", file.path])
      #expect(cli.status == 1)
      #expect(cli.standardError == "dashpilotctl: cannot load \(file.path): \(entry.problem)\n")

      rig.send(try Self.command(entry.id, entry.argument, entry.text))
      let reply = try #require(rig.dispatcher.reply(to: entry.id), "\(daemon.log)")
      #expect(reply.ok == false)
      #expect(reply.errorCode == "bad_arguments")
      #expect(reply.errorMessage == "route.load: args.\(entry.argument): \(entry.problem)")
    }
    // Nothing is followed.
    let status = try #require(daemon.waitForStatus(timeout: 10) { _ in true })
    #expect(status.object("guidance") == nil)
  }
}
