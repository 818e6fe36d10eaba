import Capture
import DashPilotCore
import Foundation
import Guidance
import TestSupport
import Testing

@testable import DashPilotCLI

/// The two forms of a replay's report: the JSON of `replay --json` and the text a person
/// reads.
struct ReplayReportTests {
  static func replay(_ url: URL) throws -> ReplayResult { try GPSDLogReplay.replay(contentsOf: url) }

  /// 2024-06-01T08:00:00Z.
  static let time = Date(timeIntervalSince1970: 1_717_228_800)

  /// An empty replay with `guidance` as its outcome.
  static func result(_ guidance: ReplayGuidanceOutcome?) -> ReplayResult {
    var replay = GPSDLogReplay()
    var result = replay.finish()
    result.guidance = guidance
    return result
  }

  @Test func theJSONReportHasExactlyTheDocumentedKeys() throws {
    let result = try Self.replay(DriveFixture.named("city-drive").json)
    let text = ReplayReport(result: result, unit: .kilometres).json
    let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    #expect(Set(object.keys) == ["input", "capture_sessions", "samples", "distance", "summary", "spoken"])
    let input = try #require(object["input"] as? [String: Any])
    #expect(Set(input.keys) == ["lines", "skipped"])
    #expect(input["lines"] as? Int == result.lines)
    let samples = try #require(object["samples"] as? [String: Any])
    #expect(
      Set(samples.keys) == [
        "received", "accepted", "held", "accuracy_assumed", "dated_by_arrival", "undated", "rejected",
        "save_failures", "withheld_private",
      ])
    #expect(samples["held"] as? Int == 9)
    #expect(samples["accuracy_assumed"] as? Int == 0)
    let rejected = try #require(samples["rejected"] as? [String: Int])
    #expect(Set(rejected.keys) == Set(SampleRejection.allCases.map(\.rawValue)))
    #expect(rejected["implausible_speed"] == 2)
    let distance = try #require(object["distance"] as? [String: Any])
    #expect(
      Set(distance.keys) == [
        "metres", "value", "unit", "segments", "gaps", "usable_positions", "inferred_continuity", "measured",
        "partial",
      ])
    #expect(distance["unit"] as? String == "kilometres")
    #expect(distance["value"] as? Double == 11.2)
    #expect(distance["gaps"] as? Int == 2)
    #expect(distance["partial"] as? Bool == true)
    #expect(distance["inferred_continuity"] as? Bool == false)
    #expect(object["capture_sessions"] as? Int == 2)
    #expect(object["summary"] as? String == "11.2 km recorded · partial route")
    #expect(
      object["spoken"] as? String
        == "11.2 kilometres recorded. This is a partial route: capture was interrupted, so more was driven than was recorded."
    )
  }

  @Test func theTextReportLeadsWithTheFigureAndItsQualifications() throws {
    let result = try Self.replay(DriveFixture.named("city-drive").json)
    let lines = ReplayReport(result: result, unit: .miles).text.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(
      Array(lines.prefix(4)) == [
        "7.0 mi recorded · partial route",
        "3 unbroken stretches of capture",
        "2 capture gaps",
        "This is a partial route: capture was interrupted, so more was driven than was recorded.",
      ])
    #expect(lines.contains("  2 rejected: implausible speed"))
  }

  @Test func theJSONListsEventsWithTheirTimesAndLateralOnlyOnOffRoute() throws {
    // What guidance said when a car left its route 300 m along (ReplayGuidanceTests).
    let result = Self.result(
      ReplayGuidanceOutcome(
        mode: .driving, phase: .offRoute,
        events: [
          TimedGuidanceEvent(.joined, at: Self.time + 1),
          TimedGuidanceEvent(.offRoute(lateral: 90.04), at: Self.time + 39),
        ]))
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(ReplayReport(result: result).json.utf8)) as? [String: Any])
    let guidance = try #require(object["guidance"] as? [String: Any])
    #expect(Set(guidance.keys) == ["mode", "phase", "events"])
    #expect(guidance["phase"] as? String == "off_route")
    let events = try #require(guidance["events"] as? [[String: Any]])
    #expect(events.count == 2)
    #expect(events.first?["type"] as? String == "joined")
    #expect(events.first?["time"] as? String == "2024-06-01T08:00:01.000Z")
    #expect(events.first?["lateral_m"] == nil)
    #expect(events.last?["time"] as? String == "2024-06-01T08:00:39.000Z")
    #expect(abs((events.last?["lateral_m"] as? Double ?? 0) - 90) < 0.1)
  }

  @Test func anOffRouteWithNoRouteNearIsNullInJSON() {
    let outcome = ReplayGuidanceOutcome(
      mode: .walking, phase: .offRoute,
      events: [TimedGuidanceEvent(.offRoute(lateral: .infinity), at: Self.time)])
    let result = Self.result(outcome)
    #expect(
      ReplayReport(result: result).json.hasSuffix(
        #","guidance":{"mode":"walking","phase":"off_route","events":[{"type":"off_route","time":"2024-06-01T08:00:00.000Z","lateral_m":null}]}}"#
      ))
    #expect(
      ReplayReport(result: result).text.hasSuffix(
        """
        Guidance (walking):
          2024-06-01T08:00:00.000Z off route, nowhere near it
          at the end: off route
        """))
  }

  @Test func withoutARouteThereIsNoGuidanceKey() {
    var replay = GPSDLogReplay()
    let result = replay.finish()
    #expect(result.guidance == nil)
    #expect(!ReplayReport(result: result).json.contains("guidance"))
    #expect(!ReplayReport(result: result).json.contains("shifts"))
  }

  /// The city drive with `--shifts movement`: one shift, open when the log ends.
  static func cityDriveShifts() throws -> ReplayResult {
    try GPSDLogReplay.replay(
      contentsOf: DriveFixture.named("city-drive").json,
      options: GPSDLogReplay.Options(shifts: ShiftPolicy.Configuration()))
  }

  @Test func theJSONListsEachShiftWithTheTopLevelDistancesKeys() throws {
    let result = try Self.cityDriveShifts()
    let text = ReplayReport(result: result, unit: .kilometres, endAfterStop: 2700).json
    let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    #expect(Set(object.keys) == ["input", "capture_sessions", "samples", "distance", "summary", "spoken", "shifts"])
    let shifts = try #require(object["shifts"] as? [[String: Any]])
    #expect(shifts.count == 1)
    let shift = try #require(shifts.first)
    #expect(
      Set(shift.keys) == ["started_at", "ended_at", "started_by", "ended_by", "distance", "summary", "spoken"])
    #expect(shift["started_at"] as? String == "2024-05-01T10:00:15.000Z")
    #expect(shift["ended_at"] as? String == "2024-05-01T10:39:13.000Z")
    #expect(shift["started_by"] as? String == "movement")
    #expect(shift["ended_by"] as? String == "end_of_log")
    let distance = try #require(shift["distance"] as? [String: Any])
    let topLevel = try #require(object["distance"] as? [String: Any])
    #expect(Set(distance.keys) == Set(topLevel.keys))
    #expect(distance["metres"] as? Double == 11_195.0)
    #expect(distance["gaps"] as? Int == 2)
    #expect(shift["summary"] as? String == "11.2 km recorded · partial route")
  }

  @Test func theTextListsTheShiftsBeneathTheReport() throws {
    let text = ReplayReport(result: try Self.cityDriveShifts(), endAfterStop: 2700).text
    #expect(
      text.hasSuffix(
        """

        Shifts (starting on movement, ending after 45 min without a move):
          1. 2024-05-01T10:00:15.000Z – 2024-05-01T10:39:13.000Z, started on movement, open when the log ended
             7.0 mi recorded · partial route
        """))
  }
}
