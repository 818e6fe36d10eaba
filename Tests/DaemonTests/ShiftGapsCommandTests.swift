import Foundation
import TestSupport
import Testing

/// `shift show` lists each capture gap with its times, its length and its cause, from a
/// real database through the real daemon and client; `--json` carries the same gaps.
@Suite("shift show's capture gaps over the real socket", .serialized)
struct ShiftGapsCommandTests {
  @Test("each gap with its times, length and cause, the window's own ends included")
  func gapsWithCauses() throws {
    let directory = try TestPaths.temporaryDirectory("shift-gaps")
    defer { try? FileManager.default.removeItem(at: directory) }
    let database = directory.appendingPathComponent("gaps.sqlite").path
    try GappedShiftFixture().write(to: database)
    let daemon = try DaemonUnderTest(arguments: ["--database", database])
    defer { daemon.stop() }
    try daemon.waitUntilReady()

    let shown = try daemon.control(["shift", "show", "1"], environment: ["TZ": "UTC"])
    #expect(shown.status == 0, "\(shown.standardError)")
    #expect(
      shown.standardOutput.split(separator: "\n").map(String.init)
        == [
          "#1  Tue 14 Nov 2023 08:00–09:00  12.7 mi recorded · partial route  (started by hand, ended by hand)",
          "  5 unbroken stretches of capture",
          "  6 capture gaps",
        ] + GappedShiftFixture.gapLines.map { "  " + $0 } + [
          "  This is a partial route: capture was interrupted, so more was driven than was recorded.",
          // The gaps are the time not captured (5 + 7 + 3 + 4 + 2 + 5 min); none is a stop.
          "  No stops of 2 min or more",
          "  Time: 34 min moving · 0 min stopped · 26 min not captured",
          "    Stopped is standing still for 2 min or more with the receiver reporting; shorter halts count as moving.",
          "    Not captured is time with no positions recorded: where the vehicle was then is not known.",
        ])

    let detail = try daemon.controlJSON(["shift", "show", "1"])
    let gaps = try #require(detail["gaps"] as? [[String: Any]])
    let expected: [(String, String, Double, String)] = [
      ("08:00:00", "08:05:00", 300, "shift started before capture"),
      ("08:15:00", "08:22:00", 420, "receiver /dev/ttyACM0 removed"),
      ("08:30:00", "08:33:00", 180, "no fixes"),
      ("08:40:00", "08:44:00", 240, "gpsd connection lost"),
      ("08:50:00", "08:52:00", 120, "daemon stopped"),
      ("08:55:00", "09:00:00", 300, "capture stopped before the shift ended"),
    ]
    #expect(gaps.count == expected.count)
    for (gap, (from, to, seconds, cause)) in zip(gaps, expected) {
      #expect(gap["from"] as? String == "2023-11-14T\(from).000Z")
      #expect(gap["to"] as? String == "2023-11-14T\(to).000Z")
      #expect(gap["seconds"] as? Double == seconds)
      #expect(gap["cause"] as? String == cause)
      #expect(Set(gap.keys) == ["from", "to", "seconds", "cause"])
    }
    #expect(detail.object("shift.distance")?["gaps"] as? Int == gaps.count)
    #expect(detail.object("shift.distance")?["segments"] as? Int == 5)
    #expect(detail["capture_sessions"] as? Int == 4)
    #expect((detail["stops"] as? [[String: Any]])?.isEmpty == true)
    #expect(detail.object("time")?["not_captured_s"] as? Double == 1560)
    #expect(detail.object("time")?["moving_s"] as? Double == 2040)
  }

  @Test("a session whose end was never recorded: the gap is listed without a cause, its cause null")
  func gapWithoutACause() throws {
    let directory = try TestPaths.temporaryDirectory("shift-gaps-unknown")
    defer { try? FileManager.default.removeItem(at: directory) }
    let database = directory.appendingPathComponent("gaps.sqlite").path
    try GappedShiftFixture().write(to: database)
    // A file written by something else: the first session's end reason is one capture never writes.
    let update = try ProcessRunner.run(
      URL(fileURLWithPath: "/usr/bin/sqlite3"),
      [database, "UPDATE capture_sessions SET end_reason = 'power_cut', end_device = NULL WHERE session_key = 's1'"])
    #expect(update.status == 0, "\(update.standardError)")
    let daemon = try DaemonUnderTest(arguments: ["--database", database])
    defer { daemon.stop() }
    try daemon.waitUntilReady()
    let shown = try daemon.control(["shift", "show", "1"], environment: ["TZ": "UTC"])
    #expect(shown.standardOutput.contains("\n  gap 08:15–08:22 (7 min)\n"), "\(shown.standardOutput)")
    let gaps = try #require(try daemon.controlJSON(["shift", "show", "1"])["gaps"] as? [[String: Any]])
    #expect(gaps[1]["cause"] is NSNull)
  }
}
