import ControlProtocol
import DashPilotCore
import Foundation
import GPSD
import TestSupport
import Testing

@testable import Daemon
@testable import Store

/// `RecordingComponent` in-process on a real SQLite file, fed gpsd's reports by the test:
/// capture only while a shift is open, sessions and their journal lines, observers, live
/// mileage, a restart with a shift open, and a store that runs out of room.
@Suite("recording component", .serialized)
struct RecordingComponentTests {
  @Test("a shift keeps its fixes, tells observers of every fix, and measures live, then within its window")
  func shiftCapture() throws {
    let harness = try RecordingHarness()
    defer {
      harness.stop()
      harness.remove()
    }
    harness.connect()
    harness.fix(0)  // no shift open: not captured, but guidance still hears of it
    #expect(harness.status().capture.session == nil)
    #expect(try harness.store.captureSessions().isEmpty)

    let started = try harness.component.startShift(harness.store)
    #expect(started.id == 1)
    #expect(started.summary == "No distance measured: no usable position was recorded")
    for second in 1...21 { harness.fix(second) }
    harness.fix(22, eph: 500)  // heard by guidance, refused by the filter
    harness.fix(23, mode: .noFix)
    let status = harness.status()
    #expect(status.capture.session == "s1")
    #expect(status.capture.accepted == 21)
    #expect(status.capture.rejected == ["poor_accuracy": 1, "no_fix": 1])
    #expect(status.gpsd.connected)
    #expect(status.gpsd.device == "/dev/ttyUSB0")
    #expect(status.gpsd.fixMode == "none")
    #expect(status.store.ok == true)
    #expect(status.store.lastError == nil)
    #expect(harness.observed.fixes.count == 23)  // 0...22: every fix with a position
    #expect(harness.observed.fixes.last?.accuracy == 500)
    #expect(
      harness.observed.accepted.map(\.timestamp) == (1...21).map { harness.driveStart.addingTimeInterval(Double($0)) })
    // Stored as kept (to the store's millimetre and millisecond).
    let stored = try harness.store.samples(ofShift: 1)
    #expect(stored.map(\.timestamp) == harness.observed.accepted.map(\.timestamp))
    #expect(stored.map(\.captureSessionID) == Array(repeating: CaptureSessionID("s1"), count: 21))
    let expected = RouteMileageCalculator().distance(of: stored)
    let live = try #require(status.shift)
    #expect(live.id == 1)
    #expect(live.endedAt == nil)
    #expect(live.distance.metres == expected.metres)
    #expect(abs(live.distance.metres - 200) < 0.01)
    #expect(live.distance.segments == 1 && live.distance.gaps == 0)
    #expect(live.summary == "0.1 mi recorded")
    #expect(live.spoken == "0.1 miles recorded.")
    #expect(
      harness.logger.all.contains("capture session s1 started for shift 1: fixes started flowing from /dev/ttyUSB0"))

    let ended = try harness.component.endShift(harness.store)
    #expect(ended.id == 1)
    #expect(ended.distance.metres == expected.metres)
    #expect(ended.distance.gaps == 0)
    #expect(ended.summary == "0.1 mi recorded")
    #expect(harness.logger.all.contains("capture session s1 of shift 1 ended: capture stopped: shift ended"))
    #expect(harness.logger.all.contains("shift 1 ended: 0.1 mi recorded"))
    #expect(try harness.store.captureSessions().map(\.endReason) == ["capture_stopped"])
    let after = harness.status()
    #expect(after.shift == nil)
    #expect(after.capture.session == nil)
    harness.fix(24)
    #expect(try harness.store.samples(ofShift: 1).count == 21)
    #expect(throws: StoreError.noOpenShift) { try harness.component.endShift(harness.store) }
  }

  @Test("a receiver unplugged mid-shift ends the session; the next fix starts another and the figure has a gap")
  func unplugged() throws {
    let harness = try RecordingHarness()
    defer {
      harness.stop()
      harness.remove()
    }
    harness.connect()
    _ = try harness.component.startShift(harness.store)
    for second in 0...5 { harness.fix(second) }
    harness.component.handle(.report(.device(GPSDDevice(path: "/dev/ttyUSB0", activated: false)), arrival: 6))
    #expect(harness.status().capture.session == nil)
    #expect(harness.status().capture.accepted == 0)
    #expect(harness.status().gpsd.device == nil)
    #expect(harness.logger.all.contains("capture session s1 of shift 1 ended: device /dev/ttyUSB0 deactivated"))
    harness.connect()
    for second in 8...12 { harness.fix(second) }
    let status = harness.status()
    #expect(status.capture.session == "s2")
    #expect(status.capture.accepted == 5)  // this session's, not the shift's
    #expect(status.capture.rejected == [:])
    let live = try #require(status.shift?.distance)
    #expect(live.segments == 2)
    #expect(live.gaps == 1)
    #expect(abs(live.metres - 90) < 0.01)  // 5 steps of 10 m, then 4
    #expect(status.shift?.summary == "0.1 mi recorded · partial route")
  }

  @Test("a restart with a shift open ends what the old process left running and resumes in a new session")
  func restart() throws {
    let first = try RecordingHarness(sessionPrefix: "a")
    defer { first.remove() }
    first.connect()
    _ = try first.component.startShift(first.store)
    for second in 0...5 { first.fix(second) }
    // The first process dies without stopping: its session is still marked running.
    #expect(try first.store.captureSessions().map(\.endedAt) == [nil])

    let second = try RecordingHarness(directory: first.directory, sessionPrefix: "b")
    defer { second.stop() }
    #expect(second.logger.all.contains("capture session a1 ended: daemon restarted"))
    #expect(second.logger.all.contains("shift 1 is still open: capture resumes in a new session"))
    #expect(try second.store.captureSessions().map(\.endReason) == ["daemon restarted"])
    #expect(second.status().capture.session == nil)
    #expect(second.status().shift?.id == 1)
    second.connect()
    let duplicate = GPSDTPV(
      mode: .threeDimensional, time: first.driveStart.addingTimeInterval(5), latitude: 51.5, longitude: -0.1,
      eph: 5, speed: 10, track: 90, device: "/dev/ttyUSB0")
    second.component.handle(.report(.tpv(duplicate), arrival: 5))
    second.component.judgePendingInstant(now: second.clock.now())
    // What is stored already is what the new filter judges against: a repeat is refused.
    #expect(second.status().capture.rejected == ["out_of_order": 1])
    for s in 6...10 {
      let tpv = GPSDTPV(
        mode: .threeDimensional, time: first.driveStart.addingTimeInterval(Double(s)), latitude: 51.5,
        longitude: -0.12 + Double(s) * 10 / (111_195.08 * cos(51.5 * .pi / 180)), eph: 5, speed: 10, track: 90,
        device: "/dev/ttyUSB0")
      second.component.handle(.report(.tpv(tpv), arrival: Double(s)))
    }
    second.component.judgePendingInstant(now: second.clock.now())
    let status = second.status()
    #expect(status.capture.session == "b1")
    let live = try #require(status.shift?.distance)
    #expect(live.usablePositions == 11)
    #expect(live.segments == 2)
    #expect(live.gaps == 1)
    #expect(abs(live.metres - 90) < 0.01)
    first.stop()
  }

  @Test(
    "a full store ends the session and shows in status; capture holds, and resumes in one new session once the tick's retry succeeds"
  )
  func storeFull() throws {
    let harness = try RecordingHarness()
    defer {
      harness.stop()
      harness.remove()
    }
    harness.connect()
    _ = try harness.component.startShift(harness.store)
    harness.fix(0)
    let pages = try #require(try harness.store.database.scalarInt64("PRAGMA page_count"))
    // SQLite's own cap on the file: a real SQLITE_FULL from the pager once a page is needed.
    _ = try harness.store.database.scalarInt64("PRAGMA max_page_count = \(pages)")
    var second = 1
    while harness.status().store.ok == true && second < 5_000 {
      harness.fix(second)
      second += 1
    }
    let failed = harness.status()
    #expect(failed.store.ok == false)
    #expect(failed.store.lastError?.hasPrefix("1 samples not saved: disk full: ") == true)
    #expect(failed.capture.session == nil)
    #expect(
      harness.logger.all.contains {
        $0.hasPrefix("capture session s1 of shift 1 ended: a sample could not be saved: 1 samples not saved: disk full")
      })
    #expect(harness.logger.all.filter { $0.hasPrefix("store write failed: ") }.count == 1)
    let keptBeforeFailure = try harness.store.samples(ofShift: 1).count
    #expect(keptBeforeFailure == second - 1)

    // While the disk stays full capture holds: the fixes are dropped and counted, no
    // session is minted for them, nothing is kept, and the error is not repeated.
    harness.fix(second + 1)
    harness.fix(second + 2)
    #expect(harness.status().capture.rejected == [RecordingComponent.droppedWhileStoreFailing: 2])
    #expect(harness.status().capture.session == nil)
    #expect(try harness.store.samples(ofShift: 1).count == keptBeforeFailure)
    #expect(harness.logger.all.filter { $0.hasPrefix("store write failed: ") }.count == 1)

    _ = try harness.store.database.scalarInt64("PRAGMA max_page_count = 1000000")
    // Space is back, but nothing has tried the store yet: the next fix is dropped too.
    harness.fix(second + 3)
    #expect(harness.status().capture.session == nil)
    harness.tick(after: 0.5)  // arms the retry a second ahead
    #expect(harness.status().store.ok == false)
    harness.tick(after: 1.0)  // due: the retry writes
    #expect(harness.status().store.ok == true)
    harness.fix(second + 4)
    harness.fix(second + 5)
    let recovered = harness.status()
    #expect(recovered.store.ok == true)
    #expect(recovered.store.lastError == nil)
    #expect(recovered.capture.session == "s2")
    #expect(harness.logger.all.contains { $0.hasPrefix("store writes succeed again") })
    #expect(try harness.store.samples(ofShift: 1).count == keptBeforeFailure + 2)
    let live = try #require(recovered.shift?.distance)
    #expect(live.segments == 2)
    #expect(live.gaps == 1)
    #expect(harness.component.isMakingProgress(now: harness.clock.now()))
  }
}
