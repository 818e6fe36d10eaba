import Foundation
import TestSupport
import Testing

/// The recording component's commands through the real `dashpilotctl` and the raw socket:
/// refusals name what was wrong, and none of them stops the daemon.
@Suite("recording commands over the real socket", .serialized)
struct RecordingCommandTests {
  @Test("a second shift start, an end with none open and an unknown shift are refused with a sentence")
  func refusals() throws {
    let daemon = try DaemonUnderTest()
    defer { daemon.stop() }
    try daemon.waitUntilReady()
    let noShift = try daemon.control(["shift", "end"])
    #expect(noShift.status == 1)
    #expect(noShift.standardError == "dashpilotctl: dashpilotd refused: no shift is open (conflict)\n")
    #expect(try daemon.control(["shift", "start"]).status == 0)
    let again = try daemon.control(["shift", "start"])
    #expect(again.status == 1)
    #expect(
      again.standardError
        == "dashpilotctl: dashpilotd refused: shift 1 is still open; end it before starting another (conflict)\n")
    let unknown = try daemon.control(["shift", "show", "99"])
    #expect(unknown.status == 1)
    #expect(unknown.standardError == "dashpilotctl: dashpilotd refused: no shift with id 99 (not_found)\n")

    let client = try RawSocketClient(path: daemon.socketPath)
    let empty = try #require(client.ask(#"{"v":1,"id":1,"cmd":"import","args":{"points":[]}}"#))
    #expect(empty.errorCode == "bad_arguments")
    #expect(empty.errorMessage == "the track to import has no positions")
    let offEarth = try #require(
      client.ask(#"{"v":1,"id":2,"cmd":"import","args":{"points":[{"lat":95,"lon":0,"time":1700000000}]}}"#))
    #expect(offEarth.errorCode == "bad_arguments")
    #expect(
      offEarth.errorMessage
        == "import: points[0] is not a position on Earth (latitude within ±90, longitude within ±180)")
    let export = try #require(client.ask(#"{"v":1,"id":3,"cmd":"export","args":{"id":42}}"#))
    #expect(export.errorCode == "not_found")

    // Still answering, with the open shift and a healthy store.
    let status = try daemon.controlJSON(["status"])
    #expect(status.object("shift")?["id"] as? Int == 1)
    #expect(status.object("store")?["ok"] as? Bool == true)
    let ended = try daemon.controlJSON(["shift", "end"])
    #expect(ended["summary"] as? String == "No distance measured: no usable position was recorded")
  }

  @Test("shifts lists newest first with the figure's words; an imported track is partial")
  func listing() throws {
    let daemon = try DaemonUnderTest(config: "[Measurement]\nUnits=kilometres\n")
    defer { daemon.stop() }
    try daemon.waitUntilReady()
    #expect(try daemon.controlJSON(["shift", "start"])["id"] as? Int == 1)
    #expect(try daemon.controlJSON(["shift", "end"])["id"] as? Int == 1)
    let client = try RawSocketClient(path: daemon.socketPath)
    // 11 points 100 m apart along a meridian (0.000899322° of latitude each), 10 s apart.
    let points = (0...10).map {
      #"{"lat":\#(51.5 + Double($0) * 0.000899322),"lon":-0.12,"time":\#(1_700_000_000 + $0 * 10),"accuracy":5}"#
    }
    let imported = try #require(
      client.ask(
        #"{"v":1,"id":1,"cmd":"import","args":{"name":"logger","points":[\#(points.joined(separator: ","))]}}"#))
    let shift = try #require(imported["result"] as? [String: Any])
    #expect(shift["id"] as? Int == 2)
    #expect(shift["summary"] as? String == "1.0 km recorded · partial route")
    let details = shift["details"] as? [String]
    #expect(
      details == [
        "1 unbroken stretch of capture", "No capture gaps detected",
        "Continuity was inferred from timestamps, so capture gaps cannot be seen.",
      ])
    var rows = try daemon.control(["shifts"]).standardOutput.split(separator: "\n").map(String.init)
    // Beneath the list, what the box keeps.
    #expect(rows.popLast() == "Every shift is kept ([Store] KeepDays=forever).")
    #expect(rows.count == 2)
    #expect(rows.first?.hasPrefix("#2  ") == true)
    #expect(rows.first?.hasSuffix("1.0 km recorded · partial route  (imported)") == true)
    #expect(rows.last?.hasPrefix("#1  ") == true)
    #expect(
      rows.last?.hasSuffix("No distance measured: no usable position was recorded  (started by hand, ended by hand)")
        == true)
    let limited = try daemon.controlJSON(["shifts", "--limit", "1"])
    #expect((limited["shifts"] as? [[String: Any]])?.map { $0["id"] as? Int } == [2])
    #expect(limited["more"] as? Bool == true)
    #expect(limited["next_before"] as? Int == 2)
    let firstPage = try daemon.control(["shifts", "--limit", "1"]).standardOutput.split(separator: "\n")
    #expect(firstPage.count == 3)
    #expect(firstPage[1] == "Older shifts: dashpilotctl shifts --before 2 --limit 1")
    #expect(firstPage.last == "Every shift is kept ([Store] KeepDays=forever).")
    let older = try daemon.controlJSON(["shifts", "--before", "#2"])
    #expect((older["shifts"] as? [[String: Any]])?.map { $0["id"] as? Int } == [1])
    #expect(older["more"] as? Bool == false)
    #expect(older["next_before"] is NSNull)
    // The imported track is of November 2023; the shift started by hand, of now.
    let of2023 = try daemon.controlJSON(["shifts", "--since", "2023-01-01", "--until", "2024-01-01T00:00:00Z"])
    #expect((of2023["shifts"] as? [[String: Any]])?.map { $0["id"] as? Int } == [2])
    let none = try daemon.control(["shifts", "--since", "2000-01-01", "--until", "2000-01-02"])
    #expect(none.standardOutput == "No shifts match.\nEvery shift is kept ([Store] KeepDays=forever).\n")
  }
}
