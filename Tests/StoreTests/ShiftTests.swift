import DashPilotCore
import Foundation
import TestSupport
import Testing

@testable import Store

@Suite struct ShiftTests {
  @Test func aShiftStartsEndsAndIsListed() throws {
    let file = try TemporaryStoreFile("shifts")
    let store = try file.open()
    #expect(try store.openShift() == nil)
    let first = try store.startShift(at: at(1_700_000_000))
    #expect(first.id == 1)
    #expect(first.shift == Shift(id: 1, startedAt: at(1_700_000_000)))
    #expect(first.origin == .recorded)
    #expect(first.maximumSampleInterval == 120)
    #expect(try store.openShift() == first)

    let ended = try store.endShift(1, at: at(1_700_003_600))
    #expect(ended.shift.endedAt == at(1_700_003_600))
    #expect(try store.openShift() == nil)
    let second = try store.startShift(at: at(1_700_010_000), maximumSampleInterval: 60)
    #expect(second.id == 2)
    #expect(try store.shifts().map(\.id) == [1, 2])
    #expect(try store.shift(id: 1)?.shift.window == DateInterval(start: at(1_700_000_000), end: at(1_700_003_600)))
    #expect(try store.shift(id: 2)?.maximumSampleInterval == 60)
    #expect(try store.shift(id: 3) == nil)
  }

  @Test func aSecondOpenShiftIsRefused() throws {
    let file = try TemporaryStoreFile("refuse")
    let store = try file.open()
    let open = try store.startShift(at: at(1_700_000_000))
    #expect(throws: StoreError.shiftAlreadyOpen(open.shift)) {
      _ = try store.startShift(at: at(1_700_000_100))
    }
    #expect(try store.shifts().count == 1)
  }

  @Test func endingIsRefusedForAMissingOrEndedShift() throws {
    let file = try TemporaryStoreFile("end")
    let store = try file.open()
    #expect(throws: StoreError.noOpenShift) { _ = try store.endOpenShift(at: at(1_700_000_000)) }
    #expect(throws: StoreError.shiftNotFound(9)) { _ = try store.endShift(9, at: at(1_700_000_000)) }
    _ = try store.startShift(at: at(1_700_000_000))
    let ended = try store.endOpenShift(at: at(1_700_000_500))
    #expect(throws: StoreError.shiftAlreadyEnded(ended.shift)) {
      _ = try store.endShift(ended.id, at: at(1_700_000_900))
    }
  }

  @Test func unusableTimesAndSettingsAreRefusedWithAReason() throws {
    let file = try TemporaryStoreFile("times")
    let store = try file.open()
    let error = #expect(throws: StoreError.self) { _ = try store.startShift(at: Date(timeIntervalSince1970: .nan)) }
    #expect(error?.description.contains("shift start") == true)
    let setting = #expect(throws: StoreError.self) {
      _ = try store.startShift(at: at(1_700_000_000), maximumSampleInterval: 0)
    }
    #expect(setting?.description.contains("maximum sample interval") == true)
    #expect(try store.shifts().isEmpty)
  }

  @Test func recordedDistanceIsMeasuredFromTheStoredRowsWithTheShiftWindow() throws {
    let file = try TemporaryStoreFile("distance")
    let store = try file.open()
    // The shift starts ten minutes before the first position: an uncovered start.
    let shift = try store.startShift(at: at(1_699_999_400))
    let route = straightRoute(count: 11)
    try store.append(route, toShift: shift.id)
    let running = try store.recordedDistance(ofShift: shift.id)
    #expect(running.segments == 1)
    #expect(running.gaps == 0)  // no window while running
    #expect(running.usablePositions == 11)
    #expect(abs(running.metres - 1_000) < 0.05)

    let ended = try store.endShift(shift.id, at: at(1_700_000_010))
    let distance = try store.recordedDistance(ofShift: shift.id)
    #expect(distance.gaps == 1)
    #expect(distance.isPartial)
    #expect(distance == ended.shift.recordedDistance(of: try store.samples(ofShift: shift.id)))
    #expect(abs(distance.metres - RouteMileageCalculator().distance(of: route).metres) < 0.05)
  }

  @Test func rowsStoredOutOfTimeOrderAreMeasuredSorted() throws {
    let file = try TemporaryStoreFile("backwards")
    let store = try file.open()
    let shift = try store.startShift(at: at(1_700_000_000))
    var rows = straightRoute(count: 11)
    rows.swapAt(4, 5)  // a clock stepped back: stored as it came
    try store.append(rows, toShift: shift.id)
    let ended = try store.endShift(shift.id, at: at(1_700_000_010))
    let distance = try store.recordedDistance(ofShift: shift.id)
    let stored = try rows.map { try SampleStore.storedForm(of: $0) }
    #expect(distance == RouteMileageCalculator().distance(of: stored, covering: ended.shift.window))
    #expect(distance.usablePositions == 11)
    #expect(distance.segments == 1)
    #expect(distance.gaps == 0)
    #expect(abs(distance.metres - 1_000) < 0.05)
  }

  @Test func aShiftIsMeasuredWithItsOwnContinuityLimit() throws {
    let file = try TemporaryStoreFile("limit")
    let store = try file.open()
    let shift = try store.startShift(at: at(1_700_000_000), maximumSampleInterval: 30)
    var builder = RouteBuilder(time: at(1_700_000_000))
    builder.drive(100, seconds: 10)
    builder.drive(100, seconds: 60)  // beyond 30 s: a gap for this shift, not for the default
    builder.drive(100, seconds: 10)
    try store.append(builder.samples, toShift: shift.id)
    let distance = try store.recordedDistance(ofShift: shift.id)
    #expect(distance.segments == 2)
    #expect(distance.gaps == 1)
    #expect(abs(distance.metres - 200) < 0.05)
    #expect(throws: StoreError.shiftNotFound(5)) { _ = try store.recordedDistance(ofShift: 5) }
  }
}
