import ControlProtocol
import DashPilotCore
import Foundation
import RouteFiles
import TestSupport
import Testing

@testable import Daemon

/// `route.load` with the route as a route file's text, through a real daemon runtime and
/// its socket (the one parser and dispatcher the fleet's commands go through too): read by
/// RouteFiles, the reader of `dashpilotctl route load FILE`, so it loads the route the
/// file's coordinates load and refuses a text with the CLI's words for a file holding it.
@Suite("route.load with the route inline")
struct InlineRouteCommandTests {
  typealias Rig = GuidanceCommandTests.Rig

  static let gpxFile = TestPaths.fixtures.appendingPathComponent("routes/short-drive.gpx")
  static let geojsonFile = TestPaths.fixtures.appendingPathComponent("routes/short-drive-divergent.geojson")

  /// `text` as a JSON string literal.
  static func quoted(_ text: String) throws -> String {
    let data = try JSONSerialization.data(withJSONObject: [text], options: [.withoutEscapingSlashes])
    return String(String(decoding: data, as: UTF8.self).dropFirst().dropLast())
  }

  /// The request `dashpilotctl route load FILE --json` makes of `file`: the coordinates the
  /// CLI's reader reads, named by the file's name.
  static func coordinatesRequest(id: Int, _ file: URL) throws -> String {
    let coordinates = try RouteFile.readRoute(atPath: file.path)
      .map { #"{"lat":\#($0.latitude),"lon":\#($0.longitude)}"# }.joined(separator: ",")
    return
      #"{"v":1,"id":\#(id),"cmd":"route.load","args":{"name":"\#(file.lastPathComponent)","coordinates":[\#(coordinates)]}}"#
  }

  @Test("GPX text and a GeoJSON object load the route their files' coordinates load, with the same result")
  func loadsAsTheFileDoes() throws {
    let rig = try Rig()
    defer { rig.daemon.stop() }
    #expect(rig.daemon.waitUntilReady())

    let fromCoordinates = try rig.ask(try Self.coordinatesRequest(id: 1, Self.gpxFile))
    let gpx = try String(contentsOf: Self.gpxFile, encoding: .utf8)
    let fromText = try rig.ask(
      #"{"v":1,"id":2,"cmd":"route.load","args":{"name":"short-drive.gpx","gpx":\#(try Self.quoted(gpx))}}"#)
    let result = try #require(fromText["result"] as? [String: Any], "\(fromText)")
    #expect(result as NSDictionary == fromCoordinates["result"] as? NSDictionary)
    #expect(result["points"] as? Int == 7)
    #expect(result["source"] as? String == "file")
    #expect(result["name"] as? String == "short-drive.gpx")

    let geojsonCoordinates = try rig.ask(try Self.coordinatesRequest(id: 3, Self.geojsonFile))
    let object = try String(contentsOf: Self.geojsonFile, encoding: .utf8).trimmingCharacters(in: .newlines)
    let asObject = try rig.ask(
      #"{"v":1,"id":4,"cmd":"route.load","args":{"name":"short-drive-divergent.geojson","geojson":\#(object)}}"#)
    #expect((asObject["result"] as? NSDictionary) == geojsonCoordinates["result"] as? NSDictionary)
    #expect((asObject["result"] as? [String: Any])?["points"] as? Int == 3)
    let asText = try rig.ask(
      #"{"v":1,"id":5,"cmd":"route.load","args":{"name":"short-drive-divergent.geojson","geojson":\#(try Self.quoted(object))}}"#
    )
    #expect((asText["result"] as? NSDictionary) == geojsonCoordinates["result"] as? NSDictionary)
  }

  @Test(
    "a bad text is refused with the reader's words, the argument named where the CLI names the file",
    arguments: [
      ("gpx", "<gpx", "route.load: args.gpx: is not XML (the document ends inside <gpx>)"),
      ("gpx", "", "route.load: args.gpx: is not XML (the document is empty)"),
      (
        "gpx", "<kml><Document/></kml>",
        "route.load: args.gpx: is XML but not GPX (its root element is <kml>, not <gpx>)"
      ),
      (
        "gpx", #"<gpx version="1.1"><rte><rtept lat="1" lon="2"/></rte></gpx>"#,
        "route.load: args.gpx: holds 1 point; a route or track needs at least two"
      ),
      (
        "geojson", #"{"type":"Point","coordinates":[2.35,48.85]}"#,
        #"route.load: args.geojson: GeoJSON type "Point" is not a route (expected LineString, MultiLineString, or a Feature or FeatureCollection holding one)"#
      ),
      ("geojson", #"{"coordinates":[]}"#, #"route.load: args.geojson: is JSON but not GeoJSON (it has no "type")"#),
      (
        "geojson", #"{"type":"LineString","coordinates":[[2.35,48.85],[2.35,95]]}"#,
        "route.load: args.geojson: point 1 is not on Earth (latitude 95.0, longitude 2.35)"
      ),
    ])
  func badText(argument: String, text: String, message: String) throws {
    let rig = try Rig()
    defer { rig.daemon.stop() }
    #expect(rig.daemon.waitUntilReady())
    let answer = try rig.ask(
      #"{"v":1,"id":1,"cmd":"route.load","args":{"\#(argument)":\#(try Self.quoted(text))}}"#)
    #expect(answer.errorCode == "bad_arguments")
    #expect(answer.errorMessage == message)
    // Nothing is followed.
    let status = try rig.ask(#"{"v":1,"id":2,"cmd":"status"}"#)
    #expect((status["result"] as? [String: Any])?["guidance"] is NSNull)
  }

  /// The lines of docs/uplink-messages.md's examples that mention `id`.
  static func pageLines(mentioning id: String) throws -> [String] {
    let page = try String(
      contentsOf: TestPaths.repositoryRoot.appendingPathComponent("docs/uplink-messages.md"), encoding: .utf8)
    return page.split(separator: "\n").map(String.init).filter { $0.contains(#""id":"\#(id)""#) }
  }

  static func object(_ line: String) throws -> NSDictionary {
    try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? NSDictionary)
  }

  @Test("the page's inline routes, sent to a real daemon, get the page's answers, and the route the coordinates give")
  func thePagesExamples() throws {
    let rig = try Rig()
    defer { rig.daemon.stop() }
    #expect(rig.daemon.waitUntilReady())
    let coordinates = try #require(try Self.pageLines(mentioning: "office-route-3").first)
    let fromCoordinates = try rig.ask(coordinates)
    for id in ["office-route-4", "office-route-5", "office-route-6"] {
      let lines = try Self.pageLines(mentioning: id)
      let command = try #require(lines.first { $0.hasPrefix(#"{"v":1,"id":"#) }, "\(id)")
      let answer = try rig.ask(command) as NSDictionary
      if let shown = lines.first(where: { !$0.hasPrefix(#"{"v":1,"id":"#) }) {
        #expect(answer == (try Self.object(shown)), "\(id): \(answer)")
      }
      if id != "office-route-6" {
        #expect(answer["result"] as? NSDictionary == fromCoordinates["result"] as? NSDictionary, "\(id)")
      }
    }
  }

  @Test("the text of a route file cannot follow coordinates sent in parts")
  func notAfterParts() throws {
    let rig = try Rig()
    defer { rig.daemon.stop() }
    #expect(rig.daemon.waitUntilReady())
    let client = try RawSocketClient(path: rig.daemon.socketPath)
    let part = try #require(
      client.ask(#"{"v":1,"id":1,"cmd":"route.load","args":{"coordinates":[{"lat":1,"lon":2}],"more":true}}"#))
    #expect((part["result"] as? [String: Any])?["received"] as? Int == 1)
    let stray = try #require(client.ask(#"{"v":1,"id":2,"cmd":"route.load","args":{"gpx":"<gpx/>"}}"#))
    #expect(stray.errorCode == "bad_arguments")
    #expect(stray.errorMessage == #"route.load: a route sent as "gpx" cannot continue coordinates sent in parts"#)
  }
}
