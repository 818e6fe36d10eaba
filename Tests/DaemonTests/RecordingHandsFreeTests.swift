import ControlProtocol
import DashPilotCore
import Foundation
import GPSD
import TestSupport
import Testing

@testable import Daemon
@testable import Store

/// `RecordingComponent` with `[Shift] Start=movement`, in-process on a real SQLite file,
/// fed gpsd's reports and ticks by the test: shifts that open when the vehicle drives off
/// and end after it stands or goes without a fix, what the journal and status say, and
/// shifts by hand beside them.
@Suite("recording component: hands-free shifts", .serialized)
struct RecordingHandsFreeTests {
  static func time(_ harness: RecordingHarness, _ second: Int) -> String {
    UTCTimestamp.string(harness.driveStart.addingTimeInterval(Double(second))) ?? "?"
  }

  /// Connected, the drive's first fix where it stands, then a drive east at 10 m/s: the
  /// shift opens at the move that is 200 m out, its window from the first move.
  static func driveOff(_ harness: RecordingHarness, through last: Int = 25) {
    harness.connect()
    for second in 0...last { harness.fix(second) }
  }

  @Test("a drive opens a shift by itself, from its first move; the fix it stood at is not in it")
  func driveOpensAShift() throws {
    let harness = try RecordingHarness(shiftStart: .movement)
    defer {
      harness.stop()
      harness.remove()
    }
    harness.connect()
    for second in 0...19 { harness.fix(second) }
    #expect(harness.status().shift == nil)
    #expect(harness.status().capture.session == "s1")
    #expect(try harness.store.shifts().isEmpty)
    #expect(try harness.store.captureSessions().isEmpty)  // nothing of it is stored yet
    harness.fix(20)  // 200 m out
    harness.fix(21)
    let shift = try #require(try harness.store.shift(id: 1))
    #expect(shift.startedBy == .movement)
    #expect(shift.shift.startedAt == harness.driveStart.addingTimeInterval(1))
    #expect(
      try harness.store.samples(ofShift: 1).map(\.timestamp)
        == (1...21).map { harness.driveStart.addingTimeInterval(Double($0)) })
    #expect(
      harness.logger.all.contains(
        "shift 1 started on movement: 200 m from where the vehicle stood; its window starts at the movement's first fix, \(Self.time(harness, 1))"
      ))
    #expect(
      harness.logger.all.contains(
        "capture session s1 started (no shift open): fixes started flowing from /dev/ttyUSB0"))
    let status = try #require(harness.status().shift)
    #expect(status.startedBy == .movement)
    #expect(status.live == ShiftSummary.Live(endsAfterStopSeconds: 2700))
    #expect(try harness.store.captureSessions().map(\.id) == [CaptureSessionID("s1")])
  }

  @Test(
    "standing still for the limit, the receiver reporting, ends it at its last moving fix: no stand in it, no end gap")
  func stoodStill() throws {
    let harness = try RecordingHarness(shiftStart: .movement)
    defer {
      harness.stop()
      harness.remove()
    }
    Self.driveOff(harness)
    // Parked at 250 m, a fix every 5 s reporting no speed.
    for second in stride(from: 30, to: 25 + 2700, by: 5) { harness.fix(second, along: 250, speed: 0) }
    let standing = try #require(harness.status().shift?.live)
    #expect(standing.stoppedSince == harness.driveStart.addingTimeInterval(25))
    #expect(standing.stoppedSeconds == 2640)  // the last held sample, at 2665 s
    #expect(harness.status().shift?.id == 1)
    harness.fix(2725, along: 250, speed: 0)
    #expect(harness.status().shift == nil)
    let ended = try #require(try harness.store.shift(id: 1))
    #expect(ended.endedBy == .stopped)
    #expect(ended.shift.endedAt == harness.driveStart.addingTimeInterval(25))
    #expect(try harness.store.samples(ofShift: 1).map(\.isHeld) == Array(repeating: false, count: 25))
    let figure = try harness.store.recordedDistance(ofShift: 1)
    #expect(figure.gaps == 0 && figure.segments == 1)
    #expect(abs(figure.metres - 240) < 0.01)
    #expect(
      harness.logger.all.contains(
        "shift 1 ended after a stop: the vehicle stood still for 45 min; it ends at its last moving fix, \(Self.time(harness, 25)): 0.1 mi recorded"
      ))
    // Driving off again opens the next one.
    for second in 2730...2760 { harness.fix(second, along: 250 + Double(second - 2729) * 10) }
    #expect(try harness.store.shift(id: 2)?.startedBy == .movement)
  }

  @Test("a stop shorter than the limit stays in the shift: its held samples are written when it moves on")
  func shortStop() throws {
    let harness = try RecordingHarness(shiftStart: .movement)
    defer {
      harness.stop()
      harness.remove()
    }
    Self.driveOff(harness)
    for second in stride(from: 30, to: 1230, by: 5) { harness.fix(second, along: 250, speed: 0) }
    #expect(try harness.store.samples(ofShift: 1).count == 25)  // the stand waits
    harness.fix(1231, along: 260)
    let rows = try harness.store.samples(ofShift: 1)
    #expect(rows.count == 25 + 20 + 1)
    #expect(rows.filter(\.isHeld).count == 20)
    #expect(harness.status().shift?.live?.stoppedSince == nil)
  }

  @Test(
    "the receiver unplugged for the limit: the tick ends it, capture_lost, at its last kept fix, by the receiver's time"
  )
  func receiverGone() throws {
    let harness = try RecordingHarness(shiftStart: .movement)
    defer {
      harness.stop()
      harness.remove()
    }
    Self.driveOff(harness)
    harness.component.handle(.report(.device(GPSDDevice(path: "/dev/ttyUSB0", activated: false)), arrival: 26))
    harness.tick(after: 2699)
    #expect(harness.status().shift?.id == 1)
    #expect(harness.status().shift?.live?.stoppedSeconds == 2699)
    harness.tick(after: 1)
    #expect(harness.status().shift == nil)
    let ended = try #require(try harness.store.shift(id: 1))
    #expect(ended.endedBy == .captureLost)
    #expect(ended.shift.endedAt == harness.driveStart.addingTimeInterval(25))
    #expect(
      harness.logger.all.contains(
        "shift 1 ended: no fix showed the vehicle move for 45 min and capture was interrupted; it ends at its last kept fix, \(Self.time(harness, 25)): 0.1 mi recorded"
      ))
  }

  @Test("after a restart the shift stays open and waits for a fix; one hours later ends it at its last fix")
  func restart() throws {
    let first = try RecordingHarness(sessionPrefix: "a", shiftStart: .movement)
    defer { first.remove() }
    Self.driveOff(first)
    first.stop()
    let second = try RecordingHarness(directory: first.directory, sessionPrefix: "b", shiftStart: .movement)
    defer { second.stop() }
    #expect(second.logger.all.contains("shift 1 is still open: capture resumes in a new session"))
    let waiting = try #require(second.status().shift)
    #expect(
      waiting.live
        == ShiftSummary.Live(
          stoppedSince: first.driveStart.addingTimeInterval(25), endsAfterStopSeconds: 2700, waitingForFix: true))
    second.tick(after: 10_000)  // no fix, no synchronised wall clock: nothing decides
    #expect(second.status().shift?.id == 1)
    second.connect()
    second.fix(25 + 3 * 3600, along: 250, speed: 0)
    #expect(second.status().shift == nil)
    #expect(try second.store.shift(id: 1)?.endedBy == .captureLost)
    #expect(try second.store.shift(id: 1)?.shift.endedAt == first.driveStart.addingTimeInterval(25))
  }

  @Test("a shift started by hand ends only by hand; ended by hand, the drive home opens none")
  func byHand() throws {
    let harness = try RecordingHarness(shiftStart: .movement)
    defer {
      harness.stop()
      harness.remove()
    }
    harness.connect()
    harness.fix(0)
    let started = try harness.component.startShift(harness.store)
    #expect(started.id == 1 && started.startedBy == .manual)
    for second in 1...10 { harness.fix(second) }
    for second in stride(from: 15, to: 4000, by: 5) { harness.fix(second, along: 100, speed: 0) }
    harness.tick(after: 5000)
    #expect(harness.status().shift?.id == 1)
    #expect(harness.status().shift?.live == ShiftSummary.Live())
    let ended = try harness.component.endShift(harness.store)
    #expect(ended.endedBy == .manual)
    // Ended 5000 s of receiver time after its last fix: an uncovered end, a gap.
    #expect(harness.logger.all.contains("shift 1 ended: 0.1 mi recorded · partial route"))
    // The session goes on: capture runs all the time.
    #expect(harness.status().capture.session == "s1")
    for second in 4001...4100 { harness.fix(second, along: 100 + Double(second - 4000) * 10) }
    #expect(try harness.store.shifts().count == 1)
  }

  @Test("Start=manual, the default, never opens one: nothing is captured until a shift is started")
  func manualNeverOpens() throws {
    let harness = try RecordingHarness()
    defer {
      harness.stop()
      harness.remove()
    }
    Self.driveOff(harness, through: 100)
    #expect(try harness.store.shifts().isEmpty)
    #expect(harness.status().capture.session == nil)
    #expect(try harness.store.captureSessions().isEmpty)
  }
}
