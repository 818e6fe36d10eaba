import Capture
import DashPilotCore
import Foundation
import TestSupport
import Testing

/// Stops found the way the daemon records them: a gpsd JSON log replayed through
/// CaptureService, then the stop policy on the kept and held rows.
@Suite("stops found in replayed logs")
struct ReplayStopsTests {
  static func replay(_ url: URL, policy: StopPolicy = StopPolicy()) throws -> ReplayResult {
    try GPSDLogReplay.replay(contentsOf: url, options: GPSDLogReplay.Options(stops: policy))
  }

  /// Each stop as "ARRIVAL DEPARTURE start/end" in UTC.
  static func summary(_ stops: [Stop]) -> [String] {
    stops.map {
      "\(UTCTimestamp.string($0.arrival) ?? "?") \(UTCTimestamp.string($0.departure) ?? "?") \($0.start.name)/\($0.end.name)"
    }
  }

  /// The generated day through the real gpsd: 39 of its 40 known stops found once each, the
  /// one under a bridge found as the gap it is, no red light or queue taken for a stop, and
  /// every arrival and departure within 10 s of the truth.
  @Test(.requiresPython3, .requiresGPSFake, .timeLimit(.minutes(10)))
  func theDeliveryDaysStops() throws {
    let directory = try StopsDay.directory()
    let result = try Self.replay(directory.appendingPathComponent("\(StopsDay.name).json"))
    let stops = try #require(result.stops)
    let truth = try StopsDay.truth(in: directory)
    #expect(truth.stops.count == 40)
    let route = RouteMileageCalculator().measure(result.samples)
    let score = StopsDay.score(found: stops, gaps: route.gaps, truth: truth.stops)
    #expect(score.problems == [])
    #expect(score.found == 39 && score.expected == 39)
    #expect(score.invented == 0)
    #expect(score.gapsAsExpected == 1 && score.gapsExpected == 1)
    #expect(score.worstEdge <= 10, "worst edge \(score.worstEdge) s")
    // The cold start began the recording; the last stop was cut by its end.
    #expect(stops.first?.start == .recordingBegan && stops.first?.end == .departed)
    #expect(stops.last?.start == .arrived && stops.last?.end == .recordingEnded)
    #expect(stops.dropFirst().dropLast().filter { !$0.isWhole }.isEmpty)
    // The cold start's first fixes sit 110 m off: where it stood is the median of the rest.
    let depot = GeoCoordinate(latitude: 53.796, longitude: -1.548)
    let coldStart = try #require(stops.first)
    #expect(GeographicDistance.metres(from: coldStart.position, to: depot) < 10)
  }

  /// Recordings no one here made, of a receiver that never moved: one stop each, from the
  /// first kept fix to the last, never split by the receiver's wander or a cold start.
  @Test(
    .requiresSharedRealLogs,
    arguments: [
      (
        "marineapi_garmin15h_coldstart_static",
        "2024-10-15T18:34:53.000Z 2024-10-15T18:46:16.000Z recording_began/recording_ended"
      ),
      ("signalk_amsterdam_static", "2033-11-17T08:54:11.000Z 2033-11-17T09:14:11.000Z recording_began/recording_ended"),
    ])
  func aParkedReceiverIsOneStop(_ name: String, _ expected: String) throws {
    let result = try Self.replay(SharedLogs.realLogs.appendingPathComponent("\(name).json"))
    let stops = try #require(result.stops)
    #expect(Self.summary(stops) == [expected])
    #expect(stops.first?.arrival == result.samples.first?.timestamp)
    #expect(stops.first?.departure == result.samples.last?.timestamp)
  }

  /// A 137 km car drive (2 s fixes): its six halts of two minutes or more, one cut by the
  /// 1250 s hole in the published file and the next beginning after it, at the same place.
  @Test(.requiresSharedRealLogs)
  func aRealCarDrivesStops() throws {
    let result = try Self.replay(SharedLogs.realLogs.appendingPathComponent("dotmorten_garmin_car_reno_tahoe.json"))
    let stops = try #require(result.stops)
    #expect(
      Self.summary(stops) == [
        "2025-05-12T00:27:18.000Z 2025-05-12T00:32:40.000Z arrived/departed",
        "2025-05-12T00:58:06.000Z 2025-05-12T01:02:14.000Z arrived/departed",
        // Each edge is a kept move: where a fix led its own speeds, the one beside it.
        "2025-05-12T01:09:32.000Z 2025-05-12T01:11:40.000Z arrived/departed",
        "2025-05-12T01:17:26.000Z 2025-05-12T01:21:06.000Z arrived/departed",
        "2025-05-12T01:25:36.000Z 2025-05-12T01:27:36.000Z arrived/before_gap",
        "2025-05-12T01:48:30.000Z 2025-05-12T01:53:16.000Z after_gap/departed",
      ])
    let (before, after) = (try #require(stops.dropLast().last), try #require(stops.last))
    #expect(GeographicDistance.metres(from: before.position, to: after.position) < 5)
    #expect(stops.allSatisfy { $0.wander < 5 })
  }

  /// The same drive leaving its 01:09 halt and crossing a car park: the drive off is
  /// measured from its first moves, and the 50 m creep at 01:13:28 is kept move by move,
  /// so the car park is no stop. What the drive before the halt overdrew its speeds (41 m
  /// over 70 km) once held the car still for 18 s after it and refused the whole creep.
  @Test(.requiresSharedRealLogs)
  func aDriveOffAfterAHaltIsMeasuredFromItsFirstMoves() throws {
    let result = try Self.replay(SharedLogs.realLogs.appendingPathComponent("dotmorten_garmin_car_reno_tahoe.json"))
    func rows(_ from: String, _ to: String) throws -> [String] {
      let (start, end) = (try #require(UTCTimestamp.parse(from)), try #require(UTCTimestamp.parse(to)))
      return result.samples.filter { $0.timestamp >= start && $0.timestamp <= end }.map {
        "\(UTCTimestamp.string($0.timestamp) ?? "?")\($0.isHeld ? " held" : "")"
      }
    }
    let driveOff = try rows("2025-05-12T01:11:30Z", "2025-05-12T01:11:46Z")
    #expect(
      driveOff == [
        "2025-05-12T01:11:32.000Z held", "2025-05-12T01:11:40.000Z", "2025-05-12T01:11:42.000Z",
        "2025-05-12T01:11:44.000Z", "2025-05-12T01:11:46.000Z",
      ])
    let creep = try rows("2025-05-12T01:13:28Z", "2025-05-12T01:13:46Z")
    #expect(creep.count == 6, "\(creep)")
  }

  /// `dashpilotctl replay --stops`, the real binary: the city drive's 7-minute delivery stop
  /// and how its time divided, as a person reads it and as JSON.
  @Test func theCommandListsTheStops() throws {
    let log = TestPaths.fixtures.appendingPathComponent("drives/city-drive.json").path
    let text = try ReplayCommandTests.replay([log, "--stops"])
    #expect(text.status == 0, "\(text.standardError)")
    let lines = text.standardOutput.split(separator: "\n").map(String.init)
    let from = try #require(lines.firstIndex(of: "Stops (UTC): 1 stop of 2 min or more"))
    #expect(
      Array(lines[from...]) == [
        "Stops (UTC): 1 stop of 2 min or more",
        "  stop 1 10:10:01–10:17:05 (7 min), ±10 m around 51.507268,-0.129902",
        "Time: 26 min moving · 7 min stopped · 6 min not captured",
        "  Stopped is standing still for 2 min or more with the receiver reporting; shorter halts count as moving.",
        "  Not captured is time with no positions recorded: where the vehicle was then is not known.",
      ])
    let json = try ReplayCommandTests.object(try ReplayCommandTests.replay([log, "--stops", "--json"]))
    let stops = try #require(json["stops"] as? [[String: Any]])
    #expect(stops.count == 1)
    #expect(stops.first?["arrival"] as? String == "2024-05-01T10:10:01.000Z")
    #expect(stops.first?["departure"] as? String == "2024-05-01T10:17:05.000Z")
    #expect(stops.first?["duration_s"] as? Double == 424)
    #expect(stops.first?["start"] as? String == "arrived" && stops.first?["end"] as? String == "departed")
    #expect(stops.first?["spoken"] as? String == "Stop 1, at 10:10:01, 7 minutes.")
    let time = try #require(json["time"] as? [String: Any])
    #expect(time["moving_s"] as? Double == 1583 && time["stopped_s"] as? Double == 424)
    #expect(time["not_captured_s"] as? Double == 344)
    // A shorter minimum finds the 30 s halt before the receiver was unplugged too (its
    // standing kept as capture stopped; 29 s from the last move its speeds carry); no stops
    // are asked for without --stops.
    let shorter = try ReplayCommandTests.object(
      try ReplayCommandTests.replay([log, "--stops", "--minimum-stop", "20s", "--json"]))
    let ends = (shorter["stops"] as? [[String: Any]])?.map { $0["end"] as? String }
    #expect(ends == ["departed", "before_gap"])
    #expect(try ReplayCommandTests.object(try ReplayCommandTests.replay([log, "--json"]))["stops"] == nil)
  }

  @Test("--places withholds a private place as the daemon does: nothing inside is kept, the stop there is a gap")
  func privatePlaceWithheld() throws {
    let log = TestPaths.fixtures.appendingPathComponent("drives/city-drive.json").path
    let directory = try TestPaths.temporaryDirectory("replay-private")
    defer { try? FileManager.default.removeItem(at: directory) }
    let places = directory.appendingPathComponent("places.geojson").path
    // A home 60 m around where the drive's stop stood (51.507268,-0.129902).
    try """
    {"type":"FeatureCollection","features":[
    {"type":"Feature","geometry":{"type":"Point","coordinates":[-0.129902,51.507268]},
     "properties":{"name":"Home","kind":"private","radius_m":60}}]}
    """.write(toFile: places, atomically: true, encoding: .utf8)
    let open = try ReplayCommandTests.object(try ReplayCommandTests.replay([log, "--stops", "--json"]))
    let withheld = try ReplayCommandTests.object(
      try ReplayCommandTests.replay([log, "--stops", "--places", places, "--json"]))
    let samples = try #require(withheld["samples"] as? [String: Any])
    #expect(samples["withheld_private"] as? Int == 440, "\(samples)")
    #expect(withheld["capture_sessions"] as? Int == (open["capture_sessions"] as? Int ?? 0) + 1)
    #expect((withheld["stops"] as? [Any])?.count == 0, "\(withheld["stops"] ?? "")")
    let metres = try #require((withheld["distance"] as? [String: Any])?["metres"] as? Double)
    let before = try #require((open["distance"] as? [String: Any])?["metres"] as? Double)
    #expect(metres == 11_050.2 && before == 11_205.0, "\(metres) \(before)")
    let text = try ReplayCommandTests.replay([log, "--places", places])
    #expect(
      text.standardOutput.contains("\n  440 withheld inside a private place (not recorded)\n"), "\(text.standardOutput)"
    )
  }

  @Test("--places names a stop by the place it lies in, as shift show does")
  func placesNameTheStops() throws {
    let log = TestPaths.fixtures.appendingPathComponent("drives/city-drive.json").path
    let directory = try TestPaths.temporaryDirectory("replay-places")
    defer { try? FileManager.default.removeItem(at: directory) }
    let places = directory.appendingPathComponent("places.geojson").path
    // The stop stood at 51.507268,-0.129902: a depot 60 m around a point 30 m from there,
    // and a yard 2 km away.
    try """
    {"type":"FeatureCollection","features":[
    {"type":"Feature","geometry":{"type":"Point","coordinates":[-0.129902,51.5075377]},
     "properties":{"name":"Depot","kind":"depot","radius_m":60}},
    {"type":"Feature","geometry":{"type":"Point","coordinates":[-0.1,51.52]},
     "properties":{"name":"Yard","kind":"customer","radius_m":60}}]}
    """.write(toFile: places, atomically: true, encoding: .utf8)
    let text = try ReplayCommandTests.replay([log, "--stops", "--places", places])
    #expect(text.status == 0, "\(text.standardError)")
    #expect(
      text.standardOutput.contains(
        "\n  stop 1 10:10:01–10:17:05 (7 min) at Depot, ±10 m around 51.507268,-0.129902\n"))
    let json = try ReplayCommandTests.object(
      try ReplayCommandTests.replay([log, "--stops", "--places", places, "--json"]))
    let stop = try #require((json["stops"] as? [[String: Any]])?.first)
    #expect(stop["place"] as? String == "Depot")
    #expect(stop["spoken"] as? String == "Stop 1, at 10:10:01, 7 minutes at Depot.")
    // Without --places, place is null, written.
    let unnamed = try ReplayCommandTests.object(try ReplayCommandTests.replay([log, "--stops", "--json"]))
    #expect((unnamed["stops"] as? [[String: Any]])?.first?["place"] is NSNull)

    // Alone, --places withholds private places only: this file has none, so the report is
    // the one without it.
    let alone = try ReplayCommandTests.replay([log, "--places", places])
    #expect(alone.status == 0, "\(alone.standardError)")
    #expect(alone.standardOutput == (try ReplayCommandTests.replay([log])).standardOutput)
    let absent = directory.appendingPathComponent("absent.geojson").path
    let missing = try ReplayCommandTests.replay([log, "--stops", "--places", absent])
    #expect(missing.status == 1)
    #expect(missing.standardError == "dashpilotctl replay: places: \(absent): does not exist\n")
  }

  @Test("--shifts movement --end-at-place: the hands-free shift ends 2 min into the stop at the depot, as the daemon's")
  func shiftsEndAtAPlace() throws {
    let log = TestPaths.fixtures.appendingPathComponent("drives/city-drive.json").path
    let directory = try TestPaths.temporaryDirectory("replay-end-at-place")
    defer { try? FileManager.default.removeItem(at: directory) }
    let places = directory.appendingPathComponent("places.geojson").path
    try """
    {"type":"FeatureCollection","features":[
    {"type":"Feature","geometry":{"type":"Point","coordinates":[-0.129902,51.507268]},
     "properties":{"name":"Depot","kind":"depot","radius_m":60}}]}
    """.write(toFile: places, atomically: true, encoding: .utf8)
    let text = try ReplayCommandTests.replay([
      log, "--shifts", "movement", "--places", places, "--end-at-place", "Depot", "--json",
    ])
    #expect(text.status == 0, "\(text.standardError)")
    let shifts = try #require(try ReplayCommandTests.object(text)["shifts"] as? [[String: Any]])
    // Without it, one shift to the end of the log (10:00:15 to 10:39:13); with it, the
    // first ends at the stop's arrival, its last move, and the drive on from it starts the
    // second.
    #expect(shifts.map { $0["ended_by"] as? String } == ["stopped_at_place", "end_of_log"])
    #expect(shifts.first?["ended_at"] as? String == "2024-05-01T10:10:01.000Z")
    #expect(shifts.last?["ended_at"] as? String == "2024-05-01T10:39:13.000Z")
    let shown = try ReplayCommandTests.replay([
      log, "--shifts", "movement", "--places", places, "--end-at-place", "Depot",
    ])
    #expect(
      shown.standardOutput.contains(
        "\nShifts (starting on movement, ending after 45 min without a move or 2 min stopped at Depot):\n"))
    #expect(shown.standardOutput.contains(", started on movement, ended after a stop at its end place\n"))

    let unknown = try ReplayCommandTests.replay([
      log, "--shifts", "movement", "--places", places, "--end-at-place", "Home",
    ])
    #expect(unknown.status == 1)
    #expect(unknown.standardError == "dashpilotctl replay: --end-at-place: no place is named \"Home\" in \(places)\n")
    let withoutPlaces = try ReplayCommandTests.replay([log, "--shifts", "movement", "--end-at-place", "Depot"])
    #expect(withoutPlaces.status == 2)
    #expect(
      withoutPlaces.standardError.hasPrefix("dashpilotctl: --end-at-place needs --shifts movement and --places\n"))
  }

  @Test func theMinimumIsADurationAndNeedsStops() throws {
    let log = TestPaths.fixtures.appendingPathComponent("drives/city-drive.json").path
    let alone = try ReplayCommandTests.replay([log, "--minimum-stop", "2min"])
    #expect(alone.status == 2)
    #expect(alone.standardError.hasPrefix("dashpilotctl: --minimum-stop needs --stops\n"))
    let wrong = try ReplayCommandTests.replay([log, "--stops", "--minimum-stop", "2m"])
    #expect(wrong.status == 2)
    #expect(
      wrong.standardError.hasPrefix(
        "dashpilotctl: --minimum-stop must be a duration such as 2min, 90s or 0.5h, not \"2m\"\n"))
  }
}
