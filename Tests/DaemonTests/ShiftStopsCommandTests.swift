import DashPilotCore
import Foundation
import RouteFiles
import TestSupport
import Testing

/// `shift show` lists a shift's stops and how its time divided, read from the rows a real
/// daemon stored from a real gpsd, with the same stop policy replay uses, and a GPX export
/// writes them as waypoints; `[Stops]
/// MinimumStop=` changes what counts, for shifts already recorded too (nothing derived is
/// stored).
@Suite("shift show's stops and time over the real socket", .serialized, .requiresGPSD)
struct ShiftStopsCommandTests {
  /// `DaemonStopsDrive`'s second `k` as the JSON writes it.
  static func at(_ k: Int) -> String { UTCTimestamp.string(DaemonStopsDrive.time(k)) ?? "?" }

  @Test("the drive's 5-minute stop, its last stop cut by the shift's end, the red light not a stop")
  func stopsOfARecordedShift() throws {
    let directory = try TestPaths.temporaryDirectory("shift-stops")
    defer { try? FileManager.default.removeItem(at: directory) }
    let receiver = try GPSDPseudoReceiver(nmea: try DaemonStopsDrive.write(in: directory), secondsPerLine: 0.005)
    defer { receiver.stop() }
    try receiver.startGPSD()
    let database = directory.appendingPathComponent("stops.sqlite").path
    let daemon = try DaemonUnderTest(arguments: ["--gpsd", "127.0.0.1:\(receiver.port)", "--database", database])
    defer { daemon.stop() }
    try daemon.waitUntilReady()
    #expect(daemon.waitForStatus(timeout: 20) { $0.object("gpsd")?["connected"] as? Bool == true } != nil)
    #expect(try daemon.control(["shift", "start"]).status == 0)
    receiver.startFeeding()
    let recorded = daemon.waitUntilRecorded(through: DaemonStopsDrive.lastFix)
    try #require(recorded != nil, "the drive was not recorded: \(daemon.log)")

    // Still standing at the end of the drive: the open shift's last stop is going on.
    let open = try daemon.controlJSON(["shift", "show", "1"])
    let standing = try #require((open["stops"] as? [[String: Any]])?.last)
    #expect(standing["arrival"] as? String == Self.at(1019))
    #expect(standing["end"] as? String == "ongoing" && standing["cut"] as? String == "stopped now")

    // status: the stop it stands in now, since it arrived, by the receiver's clock.
    let now = try daemon.controlJSON(["status"])
    let current = try #require(now.object("capture")?["stop"] as? [String: Any], "\(now)")
    #expect(current["since"] as? String == Self.at(1019))
    #expect(current["start"] as? String == "arrived")
    let standingFor = try #require(current["seconds"] as? Double)
    #expect(standingFor >= 240 && standingFor < 360)
    let statusText = try daemon.control(["status"], environment: ["TZ": "UTC"]).standardOutput
    #expect(statusText.contains("\n           stopped since Wed 01 May 2024 10:16 ("), "\(statusText)")

    let ended = try daemon.controlJSON(["shift", "end"])
    // Capture stopped with the shift (Start=manual): no stop is going on.
    #expect(try daemon.controlJSON(["status"]).object("capture")?["stop"] is NSNull)
    let end = try #require((ended["ended_at"] as? String).flatMap { UTCTimestamp.parse($0) })
    let start = try #require((ended["started_at"] as? String).flatMap { UTCTimestamp.parse($0) })
    let detail = try daemon.controlJSON(["shift", "show", "1"])
    let stops = try #require(detail["stops"] as? [[String: Any]])
    #expect(stops.count == 2)
    // Arrived at its last move (10:01:59), left at the first its speeds carry (10:07:01; the
    // step from standing to 10 m/s in one second, half of which the trapezoid of its speeds
    // carries, is no move): 302 s.
    #expect(stops[0]["arrival"] as? String == Self.at(119))
    #expect(stops[0]["departure"] as? String == Self.at(421))
    #expect(stops[0]["duration_s"] as? Double == 302)
    #expect(stops[0]["start"] as? String == "arrived" && stops[0]["end"] as? String == "departed")
    #expect(stops[0]["cut"] is NSNull)
    #expect(stops[0]["wander_m"] as? Double == 0)
    // 1190 m north of 51°30' N ("5130.64255" in the NMEA), on 0°7.2' W.
    #expect(abs((stops[0]["latitude"] as? Double ?? 0) - (51 + 30.64255 / 60)) < 1e-7)
    #expect(abs((stops[0]["longitude"] as? Double ?? 0) + 0.12) < 1e-7)
    // Standing until the shift was ended by hand: cut by its end, which is its departure.
    let lastArrival = DaemonStopsDrive.time(1019)
    #expect(stops[1]["arrival"] as? String == Self.at(1019))
    #expect(stops[1]["departure"] as? String == UTCTimestamp.string(end))
    #expect(stops[1]["duration_s"] as? Double == end.timeIntervalSince(lastArrival))
    #expect(end.timeIntervalSince(lastArrival) >= 240)
    #expect(stops[1]["start"] as? String == "arrived" && stops[1]["end"] as? String == "shift_ended")
    #expect(stops[1]["cut"] as? String == "still stopped when the shift ended")
    #expect(Set(stops[1].keys) == Set(stops[0].keys))

    // The time: stopped is the two stops, not captured the 181 s without fixes, moving the
    // rest of the window (which begins when the shift was started by hand, a moment before
    // the first fix), and the three add up to the window.
    let time = try #require(detail["time"] as? [String: Any])
    #expect(time["from"] as? String == UTCTimestamp.string(start))
    #expect(time["to"] as? String == UTCTimestamp.string(end))
    let stopped = 302 + end.timeIntervalSince(lastArrival)
    #expect(time["stopped_s"] as? Double == stopped)
    #expect(time["not_captured_s"] as? Double == 181)
    #expect(time["moving_s"] as? Double == end.timeIntervalSince(start) - stopped - 181)
    #expect(time["minimum_stop_s"] as? Double == 120)
    let gaps = try #require(detail["gaps"] as? [[String: Any]])
    #expect(gaps.map { $0["from"] as? String } == [Self.at(719)])
    #expect(gaps.map { $0["to"] as? String } == [Self.at(900)])

    let shown = try daemon.control(["shift", "show", "1"], environment: ["TZ": "UTC"])
    #expect(shown.status == 0, "\(shown.standardError)")
    let lines = shown.standardOutput.split(separator: "\n").map(String.init)
    let wording = ShiftTimeWording(
      time: ShiftTime(
        window: DateInterval(start: start, end: end), moving: end.timeIntervalSince(start) - stopped - 181,
        stopped: stopped, notCaptured: 181))
    let endClock = UTCTimestamp.string(end).map { String($0.dropFirst(11).prefix(5)) } ?? "?"
    let lastDuration = CaptureGapWording.duration(end.timeIntervalSince(lastArrival))
    let from = try #require(lines.firstIndex(of: "  2 stops of 2 min or more"), "\(lines)")
    #expect(
      Array(lines[from...]) == [
        "  2 stops of 2 min or more",
        "    stop 1 10:01–10:07 (5 min)",
        "    stop 2 10:16–\(endClock) (\(lastDuration)) · still stopped when the shift ended",
        "  Time: \(wording.summary)",
        "    Stopped is standing still for 2 min or more with the receiver reporting; shorter halts count as moving.",
        "    Not captured is time with no positions recorded: where the vehicle was then is not known.",
      ])
    #expect(lines.contains("  gap 10:11–10:15 (3 min): no fixes"))

    // GPX export: each stop a waypoint at its arrival, before the track, read back by the
    // GPX reader (libxml2) from the file dashpilotctl wrote.
    let gpx = directory.appendingPathComponent("shift-1.gpx")
    let exported = try daemon.control(["export", "1", "--format", "gpx", "--output", gpx.path])
    #expect(exported.status == 0, "\(exported.standardError)")
    let track = try RouteFile.readTrack(atPath: gpx.path)
    #expect(track.segments.count == 2)
    #expect(track.waypoints.map(\.name) == ["Stop 1", "Stop 2"])
    #expect(track.waypoints.map(\.time) == [DaemonStopsDrive.time(119), lastArrival])
    #expect(
      track.waypoints.map(\.description) == ["5 min", "\(lastDuration) · still stopped when the shift ended"])
    // 1190 m and 6590 m north of 51°30' N.
    let latitudes = [51 + 30.64255 / 60, 51 + 33.55832 / 60]
    #expect(zip(track.waypoints, latitudes).allSatisfy { abs($0.coordinate.latitude - $1) < 1e-7 })
    #expect(track.waypoints.allSatisfy { abs($0.coordinate.longitude + 0.12) < 1e-7 })
    let text = try String(contentsOf: gpx, encoding: .utf8)
    #expect(text.contains("<time>\(Self.at(119))</time><name>Stop 1</name><desc>5 min</desc></wpt>\n"))
    let (firstWaypoint, trackStart) = (try #require(text.range(of: "<wpt ")), try #require(text.range(of: "<trk>")))
    #expect(firstWaypoint.lowerBound < trackStart.lowerBound)
    daemon.stop()

    // The same rows read with a 50 s minimum: the minute at the red light is a stop too.
    let shorter = try DaemonUnderTest(config: "[Stops]\nMinimumStop=50s\n", arguments: ["--database", database])
    defer { shorter.stop() }
    try shorter.waitUntilReady()
    let again = try shorter.controlJSON(["shift", "show", "1"])
    let found = try #require(again["stops"] as? [[String: Any]])
    #expect(found.map { $0["arrival"] as? String } == [Self.at(119), Self.at(539), Self.at(1019)])
    #expect(found.map { $0["departure"] as? String } == [Self.at(421), Self.at(601), UTCTimestamp.string(end)])
    #expect(again.object("time")?["stopped_s"] as? Double == stopped + 62)
    #expect(again.object("time")?["minimum_stop_s"] as? Double == 50)
  }
}
