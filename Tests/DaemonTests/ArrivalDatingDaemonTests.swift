import Capture
import DashPilotCore
import Foundation
import TestSupport
import Testing

/// A receiver that sends GGA only (issue 28, class 4) through a pseudo-terminal to a real
/// gpsd, read by two real daemons at once: one that dates its fixes by arrival
/// (`DateByArrival=always`: this machine's clock is not synchronised, and the product's
/// setting for a clock trusted another way says so), one that never does. The kernel's
/// word itself is checked against Python's in `WallClockSynchronisationTests`.
@Suite("a GGA-only receiver live: dated by arrival, or refused and counted", .serialized, .requiresGPSD)
struct ArrivalDatingDaemonTests {
  static func daemon(_ rule: String, port: Int) throws -> DaemonUnderTest {
    let daemon = try DaemonUnderTest(
      config: "[Capture]\nDateByArrival=\(rule)\n[Measurement]\nUnits=kilometres\n",
      arguments: ["--gpsd", "127.0.0.1:\(port)"])
    try daemon.waitUntilReady()
    guard daemon.waitForStatus(timeout: 20, { $0.object("gpsd")?["connected"] as? Bool == true }) != nil else {
      throw DaemonTestFailure("dashpilotd never connected to gpsd: \(daemon.log)")
    }
    #expect(try daemon.controlJSON(["shift", "start"])["id"] as? Int == 1)
    return daemon
  }

  @Test func aShiftFromAReceiverWithNoDateIsDatedByArrivalAndSaysSo() throws {
    let nmea = TestPaths.fixtures.appendingPathComponent("truth/gga-only.nmea")
    // The receiver's pace: a GGA and a GSA a second.
    let receiver = try GPSDPseudoReceiver(nmea: nmea, secondsPerLine: 0.5)
    defer { receiver.stop() }
    try receiver.startGPSD()
    let dating = try Self.daemon("always", port: receiver.port)
    defer { dating.stop() }
    let refusing = try Self.daemon("never", port: receiver.port)
    defer { refusing.stop() }
    receiver.startFeeding()
    #expect(receiver.waitForProgress(receiver.lineCount, timeout: Double(receiver.lineCount) * 0.5 + 30))

    // Every kept fix stored, and the last one's verdict in (an undated fix is judged as it
    // arrives): the shift's rows are the session's kept fixes.
    let status = try #require(
      dating.waitForStatus(timeout: 20) { status in
        guard let capture = status.object("capture"), let accepted = capture["accepted"] as? Int,
          let rejected = capture["rejected"] as? [String: Int], accepted + rejected.values.reduce(0, +) >= 74
        else { return false }
        return status.object("shift.distance")?["usable_positions"] as? Int == accepted
      }, "nothing recorded: \(dating.log)")
    let capture = try #require(status.object("capture"))
    let accepted = try #require(capture["accepted"] as? Int)
    #expect(capture["dated_by_arrival"] as? Int == accepted)
    // No speeds: a move must clear its ends' error estimates, one kept in two or three
    // (replay's 23 include the held sample that closes the log; this capture goes on).
    #expect(accepted == 22)
    let negligible = try #require((capture["rejected"] as? [String: Int])?["negligible_movement"])
    #expect(capture["rejected"] as? [String: Int] == ["negligible_movement": negligible])
    #expect(negligible >= 51 && negligible <= 53)
    let metres = try #require(status.object("shift.distance")?["metres"] as? Double)
    // Replayed from the same feed recorded with gpspipe -w -uu: 535.5-535.8 m of 540 m
    // driven (GGAOnlyReplayTests); gpsd may drop a first cycle while it opens the device.
    #expect(abs(metres - 535.6) < 2 && metres <= 540, "\(metres) m")
    #expect(status.object("shift")?["summary"] as? String == "0.5 km recorded · dated by arrival")
    let human = try dating.control(["status"])
    #expect(human.standardOutput.contains("\(accepted) dated by arrival (receiver sends no date)"))

    let ended = try dating.controlJSON(["shift", "end"])
    #expect(ended["summary"] as? String == "0.5 km recorded · dated by arrival")
    let shown = try dating.control(["shift", "show", "1"], environment: ["TZ": "UTC"])
    #expect(shown.status == 0)
    #expect(shown.standardOutput.contains("0.5 km recorded · dated by arrival"))
    #expect(
      shown.standardOutput.contains(
        "The receiver sends no date, so its positions were dated by the box's clock when they arrived."),
      "\(shown.standardOutput)")

    // Never: the same feed records no usable position, and why is counted.
    let refused = try #require(refusing.waitForStatus(timeout: 10) { _ in true })
    let refusedCapture = try #require(refused.object("capture"))
    #expect(refusedCapture["accepted"] as? Int == 0)
    let reasons = try #require(refusedCapture["rejected"] as? [String: Int])
    #expect(reasons.keys.sorted() == ["invalid_coordinate"])
    #expect((reasons["invalid_coordinate"] ?? 0) >= accepted + negligible)
    #expect(refused.object("shift.distance")?["usable_positions"] as? Int == 0)
    #expect(refused.object("shift")?["summary"] as? String == "No distance measured: no usable position was recorded")
    print(
      "gga-only live: DateByArrival=always kept \(accepted) (dated \(capture["dated_by_arrival"] ?? "-")), "
        + "\(metres) m; never: rejected \(reasons)")
  }
}
