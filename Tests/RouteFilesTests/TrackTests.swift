import DashPilotCore
import Foundation
import RouteFiles
import Testing

@Suite struct TrackTests {
  @Test func gpxTrackKeepsSegmentsTimesElevationAndHDOP() throws {
    let files = try RouteFileFixture()
    defer { files.remove() }
    let path = try files.write(
      "drive.gpx",
      """
      <gpx version="1.1" xmlns="http://www.topografix.com/GPX/1/1"><trk><name>Tuesday</name>
      <trkseg>
        <trkpt lat="51.5" lon="-0.12"><ele>12.5</ele><time>2026-11-29T21:30:00Z</time><hdop>0.9</hdop></trkpt>
        <trkpt lat="51.5001" lon="-0.12"><time>2026-11-29T21:30:01.250Z</time></trkpt>
      </trkseg>
      <trkseg/>
      <trkseg>
        <trkpt lat="51.6" lon="-0.1"><time>2026-11-29T23:40:00+02:00</time></trkpt>
      </trkseg></trk></gpx>
      """)
    let track = try RouteFile.readTrack(atPath: path)
    #expect(
      track.segments == [
        [
          TrackPoint(
            coordinate: GeoCoordinate(latitude: 51.5, longitude: -0.12),
            time: Date(timeIntervalSince1970: 1_795_987_800), elevation: 12.5, hdop: 0.9),
          TrackPoint(
            coordinate: GeoCoordinate(latitude: 51.5001, longitude: -0.12),
            time: Date(timeIntervalSince1970: 1_795_987_801.25)),
        ],
        [
          TrackPoint(
            coordinate: GeoCoordinate(latitude: 51.6, longitude: -0.1),
            time: Date(timeIntervalSince1970: 1_795_987_800 + 600))
        ],
      ])
    #expect(track.pointCount == 3)
  }

  static let sample = TimedTrack(
    name: "Shift 7 <night> & \"late\"",
    segments: [
      [
        TrackPoint(
          coordinate: GeoCoordinate(latitude: 51.5, longitude: -0.12), time: Date(timeIntervalSince1970: 1_795_987_800),
          elevation: 12.5, hdop: 0.9),
        TrackPoint(
          coordinate: GeoCoordinate(latitude: 51.500123456789, longitude: -0.000012345),
          time: Date(timeIntervalSince1970: 1_795_987_801.25)),
      ],
      [
        TrackPoint(
          coordinate: GeoCoordinate(latitude: -33.8688, longitude: 151.2093),
          time: Date(timeIntervalSince1970: 1_795_990_000.5), elevation: -3, hdop: 2),
        TrackPoint(
          coordinate: GeoCoordinate(latitude: -33.87, longitude: 151.21),
          time: Date(timeIntervalSince1970: 1_795_990_002)),
      ],
    ])

  @Test func gpxRoundTripGivesBackTheTrack() throws {
    let files = try RouteFileFixture()
    defer { files.remove() }
    let text = RouteFile.text(of: Self.sample, as: .gpx)
    #expect(
      text.contains(
        "<trkpt lat=\"51.500123456789\" lon=\"-0.000012345\"><time>2026-11-29T21:30:01.250Z</time></trkpt>")
    )
    #expect(text.components(separatedBy: "<trkseg>").count - 1 == 2)
    #expect(text.components(separatedBy: "<trk>").count - 1 == 1)
    let path = try files.write("out.gpx", text)
    var read = try RouteFile.readTrack(atPath: path)
    #expect(read.name == nil)  // GPX track names are not read back: a shift is named by its id
    read.name = Self.sample.name
    #expect(read == Self.sample)
  }

  /// An exported shift's stops: a waypoint each, before the track (GPX 1.1's order), read
  /// back as written.
  @Test func gpxWaypointsComeBeforeTheTrackAndReadBack() throws {
    let files = try RouteFileFixture()
    defer { files.remove() }
    var track = Self.sample
    track.name = nil
    track.waypoints = [
      Waypoint(
        coordinate: GeoCoordinate(latitude: 51.5107, longitude: -0.12),
        time: Date(timeIntervalSince1970: 1_795_987_900),
        name: "Stop 1", description: "5 min"),
      Waypoint(
        coordinate: GeoCoordinate(latitude: 51.5593, longitude: -0.12),
        time: Date(timeIntervalSince1970: 1_795_988_500),
        name: "Stop <2> & co", description: "4 min · still stopped when the shift ended"),
    ]
    let text = RouteFile.text(of: track, as: .gpx)
    let lines = text.split(separator: "\n").map(String.init)
    #expect(
      Array(lines[2...4]) == [
        #"  <wpt lat="51.5107" lon="-0.12"><time>2026-11-29T21:31:40.000Z</time><name>Stop 1</name>"#
          + "<desc>5 min</desc></wpt>",
        #"  <wpt lat="51.5593" lon="-0.12"><time>2026-11-29T21:41:40.000Z</time><name>Stop &lt;2&gt; &amp; co</name>"#
          + "<desc>4 min · still stopped when the shift ended</desc></wpt>",
        "  <trk>",
      ])
    #expect(try RouteFile.readTrack(atPath: try files.write("stops.gpx", text)) == track)
  }

  @Test func geoJSONRoundTripGivesBackTheTrack() throws {
    let files = try RouteFileFixture()
    defer { files.remove() }
    let text = RouteFile.text(of: Self.sample, as: .geojson)
    #expect(
      text
        == #"{"type":"Feature","properties":{"name":"Shift 7 <night> & \"late\"","coordinateProperties":{"#
        + #""times":[["2026-11-29T21:30:00.000Z","2026-11-29T21:30:01.250Z"],["2026-11-29T22:06:40.500Z","2026-11-29T22:06:42.000Z"]],"#
        + #""hdop":[[0.9,null],[2,null]]}},"geometry":{"type":"MultiLineString","coordinates":"#
        + #"[[[-0.12,51.5,12.5],[-0.000012345,51.500123456789]],[[151.2093,-33.8688,-3],[151.21,-33.87]]]}}"# + "\n")
    let path = try files.write("out.geojson", text)
    #expect(try RouteFile.readTrack(atPath: path) == Self.sample)
    // The same file also reads as a route to follow: its lines joined.
    #expect(try RouteFile.readRoute(atPath: path).count == 4)
  }

  @Test func geoJSONWithoutHDOPWritesNoHDOP() {
    let track = TimedTrack(segments: [
      [
        TrackPoint(coordinate: GeoCoordinate(latitude: 1, longitude: 2), time: Date(timeIntervalSince1970: 0)),
        TrackPoint(coordinate: GeoCoordinate(latitude: 1.5, longitude: 2), time: Date(timeIntervalSince1970: -1)),
      ]
    ])
    #expect(
      RouteFile.text(of: track, as: .geojson)
        == #"{"type":"Feature","properties":{"coordinateProperties":{"times":[["1970-01-01T00:00:00.000Z","1969-12-31T23:59:59.000Z"]]}},"#
        + #""geometry":{"type":"MultiLineString","coordinates":[[[2,1],[2,1.5]]]}}"# + "\n")
  }
}
