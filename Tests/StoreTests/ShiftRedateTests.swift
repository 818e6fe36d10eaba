import DashPilotCore
import Foundation
import Store
import Testing

/// The open shift's start can be moved (the daemon re-dates a start its wall clock got
/// wrong); an ended shift's never.
struct ShiftRedateTests {
  @Test func theOpenShiftsStartMovesAndItsWindowFollows() throws {
    let file = try TemporaryStoreFile("redate")
    let store = try file.open()
    let shift = try store.startShift(at: Date(timeIntervalSince1970: 2_000_000_000))
    try store.redateShiftStart(shift.id, to: Date(timeIntervalSince1970: 1_714_557_592.5))
    #expect(try store.openShift()?.shift.startedAt == Date(timeIntervalSince1970: 1_714_557_592.5))
    let ended = try store.endShift(shift.id, at: Date(timeIntervalSince1970: 1_714_557_700))
    #expect(
      ended.shift.window
        == DateInterval(
          start: Date(timeIntervalSince1970: 1_714_557_592.5), end: Date(timeIntervalSince1970: 1_714_557_700)))
    #expect(throws: StoreError.shiftAlreadyEnded(ended.shift)) {
      try store.redateShiftStart(shift.id, to: Date(timeIntervalSince1970: 1))
    }
    #expect(throws: StoreError.shiftNotFound(99)) { try store.redateShiftStart(99, to: Date()) }
  }
}
