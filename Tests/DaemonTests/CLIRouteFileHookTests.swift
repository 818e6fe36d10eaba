import ControlProtocol
import DashPilotCore
import Foundation
import RouteFiles
import TestSupport
import Testing

@testable import DashPilotCLI

/// The RouteFiles hooks `dashpilotctl` runs with: `import`, `route load` and `export` read and
/// write real GPX and GeoJSON files.
@Suite("dashpilotctl route-file hooks")
struct CLIRouteFileHookTests {
  static let hooks = RouteFileHooks.routeFiles

  static func write(_ text: String, named name: String, in directory: URL) throws -> URL {
    let url = directory.appendingPathComponent(name)
    try Data(text.utf8).write(to: url)
    return url
  }

  static let twoSegmentGPX = """
    <?xml version="1.0" encoding="UTF-8"?>
    <gpx version="1.1" creator="another logger" xmlns="http://www.topografix.com/GPX/1/1">
      <trk><name>Tuesday</name>
        <trkseg>
          <trkpt lat="51.5" lon="-0.12"><time>2024-05-01T10:00:00Z</time><hdop>1.5</hdop></trkpt>
          <trkpt lat="51.5001" lon="-0.12"><time>2024-05-01T10:00:01Z</time></trkpt>
        </trkseg>
        <trkseg>
          <trkpt lat="51.51" lon="-0.12"><time>2024-05-01T10:10:00Z</time><hdop>0.8</hdop></trkpt>
        </trkseg>
      </trk>
    </gpx>
    """

  @Test func importReadsEveryPointWithHDOPTimes19MetresOrNone() throws {
    let directory = try TestPaths.temporaryDirectory("hooks")
    defer { try? FileManager.default.removeItem(at: directory) }
    let file = try Self.write(Self.twoSegmentGPX, named: "tuesday.gpx", in: directory)
    let track = try Self.hooks.readTrack(file)
    #expect(track.name == "tuesday.gpx")
    #expect(
      track.points == [
        WireTrackPoint(lat: 51.5, lon: -0.12, time: 1_714_557_600, accuracy: 28.5),
        WireTrackPoint(lat: 51.5001, lon: -0.12, time: 1_714_557_601, accuracy: nil),
        WireTrackPoint(lat: 51.51, lon: -0.12, time: 1_714_558_200, accuracy: 0.8 * 19),
      ])
  }

  @Test func aGeoJSONTrackKeepsItsName() throws {
    let directory = try TestPaths.temporaryDirectory("hooks")
    defer { try? FileManager.default.removeItem(at: directory) }
    let file = try Self.write(
      #"{"type":"Feature","properties":{"name":"Wednesday","coordinateProperties":{"times":["2024-05-01T10:00:00Z","2024-05-01T10:00:05Z"]}},"geometry":{"type":"LineString","coordinates":[[-0.12,51.5],[-0.12,51.5004]]}}"#,
      named: "w.geojson", in: directory)
    let track = try Self.hooks.readTrack(file)
    #expect(track.name == "Wednesday")
    #expect(track.points.map(\.time) == [1_714_557_600, 1_714_557_605])
    // No error estimate in the file: the daemon judges with its assumed accuracy.
    #expect(track.points.map(\.accuracy) == [nil, nil])
  }

  @Test func aNegativeHDOPIsNamed() throws {
    let directory = try TestPaths.temporaryDirectory("hooks")
    defer { try? FileManager.default.removeItem(at: directory) }
    let file = try Self.write(
      Self.twoSegmentGPX.replacingOccurrences(of: "<hdop>0.8</hdop>", with: "<hdop>-2</hdop>"), named: "bad.gpx",
      in: directory)
    #expect(
      throws: RouteFileHooks.FileProblem(
        description: "point 2 has hdop -2.0, which is not a dilution of precision (a number of at least 0)")
    ) {
      try Self.hooks.readTrack(file)
    }
  }

  @Test func routeLoadReadsTheRouteFixture() throws {
    let file = TestPaths.fixtures.appendingPathComponent("routes/short-drive.gpx")
    let route = try Self.hooks.readRoute(file)
    #expect(route.name == "short-drive.gpx")
    #expect(route.coordinates.count == 7)
    #expect(route.coordinates.first == WireCoordinate(lat: 48.85, lon: 2.35))
    #expect(route.coordinates.last == WireCoordinate(lat: 48.856565, lon: 2.3504096))
    let geojson = try Self.hooks.readRoute(
      TestPaths.fixtures.appendingPathComponent("routes/short-drive-divergent.geojson"))
    #expect(geojson.coordinates.count == 3)
  }

  static let export = ExportResult(
    shift: ShiftSummary(
      id: 12, startedAt: Date(timeIntervalSince1970: 1_714_557_600),
      endedAt: Date(timeIntervalSince1970: 1_714_558_200),
      distance: WireDistance(
        metres: 11.1, value: 0.0, unit: "miles", segments: 2, gaps: 1, usablePositions: 3,
        usesInferredContinuity: false, isMeasured: true, isPartial: true),
      summary: "0.0 mi recorded · partial route", details: [], spoken: ""),
    segments: [
      [
        WireTrackPoint(lat: 51.5, lon: -0.12, time: 1_714_557_600, accuracy: 28.5),
        WireTrackPoint(lat: 51.5001, lon: -0.12, time: 1_714_557_601, accuracy: 4.75),
      ],
      [WireTrackPoint(lat: 51.51, lon: -0.12, time: 1_714_558_200, accuracy: nil)],
    ])

  @Test func aGPXExportKeepsEachSegmentAndImportsBackTheSame() throws {
    let text = String(decoding: try Self.hooks.writeExport(Self.export, .gpx), as: UTF8.self)
    #expect(text.components(separatedBy: "<trkseg>").count == 3)
    #expect(text.contains("<name>DashPilot shift #12</name>"))
    let directory = try TestPaths.temporaryDirectory("hooks")
    defer { try? FileManager.default.removeItem(at: directory) }
    let file = try Self.write(text, named: "shift-12.gpx", in: directory)
    let track = try RouteFile.readTrack(atPath: file.path)
    #expect(track.segments.map(\.count) == [2, 1])
    #expect(track.segments[0].map(\.hdop) == [1.5, 0.25])
    #expect(track.segments[1][0].hdop == nil)
    // Imported again: positions and times as exported; accuracies through hdop x 19 m.
    let imported = try Self.hooks.readTrack(file)
    #expect(imported.points.map(\.lat) == [51.5, 51.5001, 51.51])
    #expect(imported.points.map(\.time) == [1_714_557_600, 1_714_557_601, 1_714_558_200])
    #expect(imported.points.map(\.accuracy) == [28.5, 4.75, nil])
  }

  /// An accuracy derived HDOP is written with the precision it has, and imports back to the
  /// centimetre the store keeps.
  @Test func exportedHDOPsCarryNoBinaryNoise() throws {
    var export = Self.export
    export.segments = [
      [
        WireTrackPoint(lat: 51.5, lon: -0.12, time: 1_714_557_600, accuracy: 7.6),
        WireTrackPoint(lat: 51.5001, lon: -0.12, time: 1_714_557_601, accuracy: 3),
      ]
    ]
    let gpx = String(decoding: try Self.hooks.writeExport(export, .gpx), as: UTF8.self)
    #expect(gpx.contains("<hdop>0.4</hdop>"))
    #expect(gpx.contains("<hdop>0.1579</hdop>"))
    let geojson = String(decoding: try Self.hooks.writeExport(export, .geojson), as: UTF8.self)
    #expect(geojson.contains(#""hdop":[[0.4,0.1579]]"#))
    let directory = try TestPaths.temporaryDirectory("hooks")
    defer { try? FileManager.default.removeItem(at: directory) }
    let imported = try Self.hooks.readTrack(try Self.write(gpx, named: "noise.gpx", in: directory))
    #expect(imported.points.map { (($0.accuracy ?? 0) * 100).rounded() } == [760, 300])
  }

  @Test func aGeoJSONExportIsAMultiLineStringWithALinePerSegment() throws {
    let data = try Self.hooks.writeExport(Self.export, .geojson)
    let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    let geometry = try #require(object["geometry"] as? [String: Any])
    #expect(geometry["type"] as? String == "MultiLineString")
    let lines = try #require(geometry["coordinates"] as? [[[Double]]])
    #expect(lines == [[[-0.12, 51.5], [-0.12, 51.5001]], [[-0.12, 51.51]]])
  }

  // MARK: Through the real dashpilotctl

  static func control(_ arguments: [String]) throws -> ProcessOutcome {
    var environment = ProcessInfo.processInfo.environment
    environment["NO_COLOR"] = "1"
    environment["DASHPILOT_SOCKET"] = nil
    return try ProcessRunner.run(try DaemonBinaries.url("dashpilotctl"), arguments, environment: environment)
  }

  /// A bad file named by the user is a request that cannot be done, not a wrong command
  /// line: exit 1 (as `replay` does for a log it cannot read), the file and problem named,
  /// before any daemon is contacted.
  @Test func aFileThatIsNotATrackOrRouteExits1NamingTheFileAndTheProblem() throws {
    let directory = try TestPaths.temporaryDirectory("hooks-cli")
    defer { try? FileManager.default.removeItem(at: directory) }
    let broken = try Self.write("<gpx", named: "broken.gpx", in: directory).path
    let lonely = try Self.write(
      #"<gpx version="1.1"><trk><trkseg><trkpt lat="1" lon="2"><time>2024-05-01T10:00:00Z</time></trkpt></trkseg></trk></gpx>"#,
      named: "lonely.gpx", in: directory
    ).path
    let missing = directory.appendingPathComponent("missing.geojson").path
    let socket = ["--socket", directory.appendingPathComponent("no.sock").path]
    let cases: [([String], String)] = [
      (["import", broken], "dashpilotctl: cannot import \(broken): is not XML (the document ends inside <gpx>)\n"),
      (
        ["import", lonely],
        "dashpilotctl: cannot import \(lonely): holds 1 point; a route or track needs at least two\n"
      ),
      (
        ["route", "load", missing], "dashpilotctl: cannot load \(missing): cannot be read (No such file or directory)\n"
      ),
      (
        ["route", "load", broken, "--mode", "walking"],
        "dashpilotctl: cannot load \(broken): is not XML (the document ends inside <gpx>)\n"
      ),
    ]
    for (arguments, message) in cases {
      let outcome = try Self.control(arguments + socket)
      #expect(outcome.status == 1, "\(arguments)")
      #expect(outcome.standardOutput == "")
      #expect(outcome.standardError == message)
    }
  }

  @Test func aGoodFileIsReadAndThenTheDaemonIsAskedFor() throws {
    let directory = try TestPaths.temporaryDirectory("hooks-cli")
    defer { try? FileManager.default.removeItem(at: directory) }
    let track = try Self.write(Self.twoSegmentGPX, named: "tuesday.gpx", in: directory).path
    let socket = directory.appendingPathComponent("no.sock").path
    let outcome = try Self.control(["import", track, "--socket", socket])
    #expect(outcome.status == 3)
    #expect(outcome.standardError.contains("there is no control socket at \(socket)"))
  }

  @Test func aRouteFileReachesTheRealDaemon() throws {
    let daemon = try DaemonUnderTest()
    defer { daemon.stop() }
    try daemon.waitUntilReady()
    let route = TestPaths.fixtures.appendingPathComponent("routes/short-drive.gpx").path
    let outcome = try daemon.control(["route", "load", route, "--json"])
    // The file was read by the client and arrived whole at the guidance component.
    #expect(outcome.status == 0)
    let answer = try #require(
      try JSONSerialization.jsonObject(with: Data(outcome.standardOutput.utf8)) as? [String: Any])
    let expected = try RouteFile.readRoute(atPath: route)
    #expect(answer["points"] as? Int == expected.count)
    #expect(answer["mode"] as? String == "driving")
    #expect(answer["name"] as? String == "short-drive.gpx")
  }
}
