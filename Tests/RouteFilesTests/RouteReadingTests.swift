import DashPilotCore
import Foundation
import RouteFiles
import Testing

@Suite struct RouteReadingTests {
  @Test func gpxRouteReadsRoutePointsInOrder() throws {
    let files = try RouteFileFixture()
    defer { files.remove() }
    let path = try files.write(
      "r.gpx",
      """
      <?xml version="1.0"?>
      <gpx version="1.1" creator="t" xmlns="http://www.topografix.com/GPX/1/1">
        <wpt lat="1" lon="1"/>
        <rte><name>to depot</name>
          <rtept lat="51.5" lon="-0.12"/><rtept lat="51.501" lon="-0.121"><ele>10</ele></rtept>
          <rtept lat=" 51.502 " lon="-0.1225"/>
        </rte>
      </gpx>
      """)
    let route = try RouteFile.readRoute(atPath: path)
    #expect(
      route == [
        GeoCoordinate(latitude: 51.5, longitude: -0.12), GeoCoordinate(latitude: 51.501, longitude: -0.121),
        GeoCoordinate(latitude: 51.502, longitude: -0.1225),
      ])
  }

  @Test func gpxTrackJoinsSegmentsWhenNoRouteExists() throws {
    let files = try RouteFileFixture()
    defer { files.remove() }
    let path = try files.write(
      "t.gpx",
      """
      <gpx xmlns:g="http://www.topografix.com/GPX/1/0"><trk><trkseg><trkpt lat="10" lon="20"/><trkpt lat="10.5" lon="20"/></trkseg>
      <trkseg><trkpt lat="11" lon="20.5"/></trkseg></trk><trk><trkseg><trkpt lat="80" lon="80"/><trkpt lat="81" lon="80"/></trkseg></trk></gpx>
      """)
    #expect(
      try RouteFile.readRoute(atPath: path) == [
        GeoCoordinate(latitude: 10, longitude: 20), GeoCoordinate(latitude: 10.5, longitude: 20),
        GeoCoordinate(latitude: 11, longitude: 20.5),
      ])
  }

  @Test func geoJSONLineStringFeatureAndCollection() throws {
    let files = try RouteFileFixture()
    defer { files.remove() }
    let expected = [GeoCoordinate(latitude: 37.5, longitude: 127.0), GeoCoordinate(latitude: 37.51, longitude: 127.02)]
    let bare = try files.write("a.geojson", #"{"type":"LineString","coordinates":[[127.0,37.5,12],[127.02,37.51]]}"#)
    let feature = try files.write(
      "b.json",
      #"{"type":"Feature","properties":{},"geometry":{"type":"LineString","coordinates":[[127,37.5],[127.02,37.51]]}}"#)
    let collection = try files.write(
      "c.geojson",
      #"{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"Point","coordinates":[0,0]}},"#
        + #"{"type":"Feature","geometry":{"type":"LineString","coordinates":[[127,37.5],[127.02,37.51]]}}]}"#)
    #expect(try RouteFile.readRoute(atPath: bare) == expected)
    #expect(try RouteFile.readRoute(atPath: feature) == expected)
    #expect(try RouteFile.readRoute(atPath: collection) == expected)
  }

  @Test func geoJSONMultiLineStringKeepsASharedJunctionOnce() throws {
    let files = try RouteFileFixture()
    defer { files.remove() }
    let path = try files.write(
      "m.geojson", #"{"type":"MultiLineString","coordinates":[[[1,2],[3,4]],[[3,4],[5,6]],[[7,8]]]}"#)
    #expect(
      try RouteFile.readRoute(atPath: path) == [
        GeoCoordinate(latitude: 2, longitude: 1), GeoCoordinate(latitude: 4, longitude: 3),
        GeoCoordinate(latitude: 6, longitude: 5), GeoCoordinate(latitude: 8, longitude: 7),
      ])
  }

  @Test func formatIsSniffedWhenTheExtensionSaysNothing() throws {
    let files = try RouteFileFixture()
    defer { files.remove() }
    let gpx = try files.write(
      "route.txt", "\n  <gpx><rte><rtept lat=\"1\" lon=\"2\"/><rtept lat=\"3\" lon=\"4\"/></rte></gpx>")
    let json = try files.write("route", #" {"type":"LineString","coordinates":[[2,1],[4,3]]}"#)
    let expected = [GeoCoordinate(latitude: 1, longitude: 2), GeoCoordinate(latitude: 3, longitude: 4)]
    #expect(try RouteFile.readRoute(atPath: gpx) == expected)
    #expect(try RouteFile.readRoute(atPath: json) == expected)
  }

  /// A long day's track from another logger is more than 10 MB of GPX: libxml2 2.9 refuses
  /// that when the text is pushed to it ("Huge input lookup", which the reader through
  /// Foundation ran into too), and reads it when it is streamed.
  @Test func aFileOfMoreThanTenMegabytesReads() throws {
    let count = 260_000
    var text = "<gpx><rte>"
    text.reserveCapacity(count * 48 + 20)
    for index in 0..<count { text += "<rtept lat=\"\(index % 80).123456\" lon=\"\(index / 80 % 180).654321\"/>" }
    text += "</rte></gpx>"
    #expect(text.utf8.count > 10_000_000)
    let route = try RouteFile.readRoute(Data(text.utf8), format: .gpx, source: "day.gpx")
    #expect(route.count == count)
    #expect(route.last == GeoCoordinate(latitude: 79.123456, longitude: 9.654321))
  }
}
