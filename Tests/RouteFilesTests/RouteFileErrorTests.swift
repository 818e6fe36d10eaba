import DashPilotCore
import Foundation
import RouteFiles
import Testing

/// Every problem gets a message naming the file and what is wrong with it.
@Suite struct RouteFileErrorTests {
  private func routeError(_ name: String, _ text: String) throws -> RouteFileError? {
    let files = try RouteFileFixture()
    defer { files.remove() }
    let path = try files.write(name, text)
    do {
      _ = try RouteFile.readRoute(atPath: path)
      return nil
    } catch {
      return RouteFileError(file: URL(fileURLWithPath: error.file).lastPathComponent, problem: error.problem)
    }
  }

  private func trackError(_ name: String, _ text: String) throws -> RouteFileError? {
    let files = try RouteFileFixture()
    defer { files.remove() }
    let path = try files.write(name, text)
    do {
      _ = try RouteFile.readTrack(atPath: path)
      return nil
    } catch {
      return RouteFileError(file: URL(fileURLWithPath: error.file).lastPathComponent, problem: error.problem)
    }
  }

  @Test func theErrorNamesTheFullPathItWasGiven() throws {
    let files = try RouteFileFixture()
    defer { files.remove() }
    let path = try files.write("x.gpx", "<gpx/>")
    #expect(throws: RouteFileError(file: path, problem: .noRouteOrTrack)) { try RouteFile.readRoute(atPath: path) }
  }

  @Test func missingFile() {
    #expect(throws: RouteFileError(file: "/nonexistent/r.gpx", problem: .unreadable("No such file or directory"))) {
      try RouteFile.readRoute(atPath: "/nonexistent/r.gpx")
    }
    #expect(
      RouteFileError(file: "/nonexistent/r.gpx", problem: .unreadable("No such file or directory")).description
        == "/nonexistent/r.gpx: cannot be read (No such file or directory)")
  }

  @Test func notXML() throws {
    let plain = try #require(try routeError("r.gpx", "this is not xml"))
    #expect(plain.description == "r.gpx: is not XML (malformed near line 1, parser error 4)")
    let empty = try #require(try routeError("r.gpx", ""))
    #expect(empty.description == "r.gpx: is not XML (the document is empty)")
    // libxml2 recovers from these and Foundation reports success: the reader's own check
    // of the nesting refuses them.
    for text in [
      "<gpx><rte><rtept lat=\"1\" lon=\"2\">\n</rte></gpx>",
      "<gpx><rte><rtept lat=\"1\" lon=\"2\"/><rtept lat=\"1\" lon=\"3\"/>",
    ] {
      let error = try #require(try routeError("r.gpx", text))
      guard case .notXML(let reason) = error.problem else {
        Issue.record("expected notXML for \(text), got \(error)")
        continue
      }
      #expect(error.description == "r.gpx: is not XML (\(reason))")
    }
  }

  @Test func xmlThatIsNotGPX() throws {
    let error = try #require(try routeError("r.gpx", "<kml><Document/></kml>"))
    #expect(error.problem == .notGPX(rootElement: "kml"))
    #expect(error.description == "r.gpx: is XML but not GPX (its root element is <kml>, not <gpx>)")
  }

  @Test func noRouteOrTrack() throws {
    let error = try #require(try routeError("r.gpx", "<gpx><wpt lat=\"1\" lon=\"2\"/><rte/></gpx>"))
    #expect(error.description == "r.gpx: holds no route or track")
    let json = try #require(try routeError("r.geojson", #"{"type":"FeatureCollection","features":[]}"#))
    #expect(json.description == "r.geojson: holds no route or track")
    let track = try #require(
      try trackError("t.gpx", "<gpx><rte><rtept lat=\"1\" lon=\"2\"/><rtept lat=\"1\" lon=\"3\"/></rte></gpx>"))
    #expect(track.description == "t.gpx: holds no route or track")
  }

  @Test func fewerThanTwoPoints() throws {
    let gpx = try #require(try routeError("r.gpx", "<gpx><rte><rtept lat=\"1\" lon=\"2\"/></rte></gpx>"))
    #expect(gpx.description == "r.gpx: holds 1 point; a route or track needs at least two")
    let json = try #require(try routeError("r.geojson", #"{"type":"LineString","coordinates":[]}"#))
    #expect(json.description == "r.geojson: holds 0 points; a route or track needs at least two")
  }

  @Test func coordinateOutOfRangeNamesItsIndex() throws {
    let gpx = try #require(
      try routeError(
        "r.gpx",
        "<gpx><rte><rtept lat=\"1\" lon=\"2\"/><rtept lat=\"1\" lon=\"2\"/><rtept lat=\"91\" lon=\"2\"/></rte></gpx>"))
    #expect(gpx.problem == .coordinateOutOfRange(index: 2, latitude: 91, longitude: 2))
    #expect(gpx.description == "r.gpx: point 2 is not on Earth (latitude 91.0, longitude 2.0)")
    let json = try #require(try routeError("r.geojson", #"{"type":"LineString","coordinates":[[181,0],[0,0]]}"#))
    #expect(json.description == "r.geojson: point 0 is not on Earth (latitude 0.0, longitude 181.0)")
  }

  @Test func unreadableCoordinate() throws {
    let gpx = try #require(
      try routeError("r.gpx", "<gpx><rte><rtept lat=\"1\" lon=\"2\"/><rtept lat=\"north\" lon=\"2\"/></rte></gpx>"))
    #expect(gpx.description == "r.gpx: point 1 has no readable latitude and longitude")
    let json = try #require(try routeError("r.geojson", #"{"type":"LineString","coordinates":[[1,2],[true,2]]}"#))
    #expect(json.description == "r.geojson: point 1 has no readable latitude and longitude")
  }

  @Test func unsupportedGeoJSONType() throws {
    let error = try #require(
      try routeError("r.geojson", #"{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,0]]]}"#))
    #expect(
      error.description
        == "r.geojson: GeoJSON type \"Polygon\" is not a route (expected LineString, MultiLineString, or a Feature or FeatureCollection holding one)"
    )
    let feature = try #require(
      try routeError("r.geojson", #"{"type":"Feature","geometry":{"type":"Point","coordinates":[0,0]}}"#))
    #expect(feature.problem == .unsupportedGeoJSONType("Point"))
  }

  @Test func notJSONAndNotGeoJSON() throws {
    let broken = try #require(try routeError("r.geojson", #"{"type":"LineString","#))
    guard case .notJSON = broken.problem else {
      Issue.record("expected notJSON, got \(broken)")
      return
    }
    #expect(broken.description.hasPrefix("r.geojson: is not JSON ("))
    let plain = try #require(try routeError("r.json", #"[1,2,3]"#))
    #expect(plain.description == "r.json: is JSON but not GeoJSON (it has no \"type\")")
  }

  @Test func neitherFormat() throws {
    let error = try #require(try routeError("r.txt", "lat,lon\n1,2\n"))
    #expect(error.description == "r.txt: is neither GPX nor GeoJSON")
  }

  @Test func badAndMissingTimes() throws {
    let bad = try #require(
      try trackError(
        "t.gpx",
        "<gpx><trk><trkseg><trkpt lat=\"1\" lon=\"2\"><time>2026-11-29T21:30:00Z</time></trkpt>"
          + "<trkpt lat=\"1\" lon=\"2.1\"><time>2026-02-30T10:00:00Z</time></trkpt></trkseg></trk></gpx>"))
    #expect(
      bad.description
        == "t.gpx: point 1 has an unreadable time \"2026-02-30T10:00:00Z\" (expected ISO 8601, e.g. 2026-11-29T21:30:00Z)"
    )
    let missing = try #require(
      try trackError(
        "t.gpx",
        "<gpx><trk><trkseg><trkpt lat=\"1\" lon=\"2\"><time>2026-11-29T21:30:00Z</time></trkpt></trkseg>"
          + "<trkseg><trkpt lat=\"1\" lon=\"2.1\"/></trkseg></trk></gpx>"))
    #expect(missing.description == "t.gpx: point 1 has no time")
    let json = try #require(
      try trackError(
        "t.geojson",
        #"{"type":"Feature","properties":{"coordinateProperties":{"times":["2026-11-29T21:30:00Z",17]}},"#
          + #""geometry":{"type":"LineString","coordinates":[[1,2],[1,3]]}}"#))
    #expect(json.problem == .badTime(index: 1, text: "17"))
    let untimed = try #require(try trackError("t.geojson", #"{"type":"LineString","coordinates":[[1,2],[1,3]]}"#))
    #expect(untimed.description == "t.geojson: point 0 has no time")
  }
}
