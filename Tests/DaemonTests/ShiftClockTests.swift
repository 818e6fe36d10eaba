import Foundation
import Testing

@testable import Daemon

/// Shift starts and ends dated on the receiver's clock: the wall clock only before any fix,
/// and a start stamped by it re-dated by the first fix when the two disagree.
struct ShiftClockTests {
  let drive = Date(timeIntervalSince1970: 1_714_557_600)  // 2024-05-01T10:00:00Z
  let wallNineYearsAhead = Date(timeIntervalSince1970: 1_714_557_600 + 9 * 365.25 * 86_400)

  @Test func beforeAnyFixTheWallClockStampsAndTheFirstFixRedates() throws {
    var clock = ShiftClock(tolerance: 120)
    let stamp = clock.startStamp(wall: wallNineYearsAhead, monotonic: 1_000)
    #expect(stamp == wallNineYearsAhead)
    clock.shiftStarted(7, stamped: stamp, monotonic: 1_000)
    // The first fix is kept 12.5 s after the start; it is dated 10:00:05.
    let kept = clock.kept(fixAt: drive.addingTimeInterval(5), monotonic: 1_012.5, shiftID: 7)
    let correction = try #require(kept)
    #expect(correction.start == drive.addingTimeInterval(-7.5))
    #expect(correction.wallClockError == wallNineYearsAhead.timeIntervalSince(drive.addingTimeInterval(-7.5)))
    // Only the first fix checks the start.
    let second = clock.kept(fixAt: drive.addingTimeInterval(6), monotonic: 1_013.5, shiftID: 7)
    #expect(second == nil)
    // The end is the last fix's time carried forward on the monotonic clock.
    #expect(clock.endStamp(wall: wallNineYearsAhead, monotonic: 1_100) == drive.addingTimeInterval(92.5))
  }

  @Test func aWallClockWithinTheGapIntervalIsLeftAlone() {
    var clock = ShiftClock(tolerance: 120)
    clock.shiftStarted(1, stamped: drive.addingTimeInterval(100), monotonic: 50)
    let close = clock.kept(fixAt: drive.addingTimeInterval(10), monotonic: 60, shiftID: 1)
    #expect(close == nil)
    var behind = ShiftClock(tolerance: 120)
    behind.shiftStarted(1, stamped: drive.addingTimeInterval(-121), monotonic: 50)
    let far = behind.kept(fixAt: drive, monotonic: 50, shiftID: 1)
    #expect(far?.start == drive)
  }

  @Test func aShiftStartedAfterAFixIsDatedByTheReceiverAndNeverRedated() {
    var clock = ShiftClock(tolerance: 120)
    let first = clock.kept(fixAt: drive, monotonic: 10, shiftID: 3)
    #expect(first == nil)
    let stamp = clock.startStamp(wall: wallNineYearsAhead, monotonic: 70)
    #expect(stamp == drive.addingTimeInterval(60))
    clock.shiftStarted(4, stamped: stamp, monotonic: 70)
    #expect(clock.provisionalStart == nil)
    let later = clock.kept(fixAt: drive.addingTimeInterval(500), monotonic: 80, shiftID: 4)
    #expect(later == nil)
  }

  @Test func aFixOfAnotherShiftDoesNotRedateThisOne() {
    var clock = ShiftClock(tolerance: 120)
    clock.shiftStarted(2, stamped: wallNineYearsAhead, monotonic: 0)
    let other = clock.kept(fixAt: drive, monotonic: 1, shiftID: 1)
    #expect(other == nil)
    #expect(clock.provisionalStart?.shiftID == 2)
  }
}
