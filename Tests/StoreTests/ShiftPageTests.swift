import DashPilotCore
import Foundation
import TestSupport
import Testing

@testable import Store

/// `shifts` a page at a time, and completed shifts' figures remembered for as long as their
/// rows do not change.
@Suite("shift pages and remembered figures")
struct ShiftPageTests {
  /// Shifts 1...count, a day apart from 2026-01-01, each with a short drive.
  static func history(_ count: Int) throws -> (TemporaryStoreFile, SampleStore) {
    let file = try TemporaryStoreFile("pages")
    let store = try file.open()
    for day in 0..<count {
      let start = at(1_767_225_600 + Double(day) * 86_400)
      let shift = try store.startShift(at: start)
      try store.append(straightRoute(count: 11, start: start.addingTimeInterval(60)), toShift: shift.id)
      _ = try store.endShift(shift.id, at: start.addingTimeInterval(3_600))
    }
    return (file, store)
  }

  @Test("pages run newest first, each says whether older shifts match, and a day range keeps its own")
  func pages() throws {
    let (file, store) = try Self.history(7)
    _ = file
    let first = try store.shifts(limit: 3)
    #expect(first.shifts.map(\.id) == [7, 6, 5])
    #expect(first.more)
    let second = try store.shifts(limit: 3, before: 5)
    #expect(second.shifts.map(\.id) == [4, 3, 2])
    #expect(second.more)
    let last = try store.shifts(limit: 3, before: 2)
    #expect(last.shifts.map(\.id) == [1])
    #expect(!last.more)
    // 2026-01-03 to 2026-01-05: the shifts of the 3rd and the 4th.
    let range = try store.shifts(limit: 20, since: at(1_767_398_400), until: at(1_767_571_200))
    #expect(range.shifts.map(\.id) == [4, 3])
    #expect(!range.more)
    #expect(try store.shifts(limit: 2, before: 4, since: at(1_767_398_400)).shifts.map(\.id) == [3])
  }

  @Test("a completed shift's figure is remembered until its rows or the store's row epoch change")
  func rememberedFigures() throws {
    let (file, store) = try Self.history(2)
    let memory = ShiftFigureMemory()
    let reader = try SampleStore(readingFrom: file.path)
    var epoch = try store.rowEpoch()
    let measured = try reader.recordedDistance(ofShift: 1, remembering: memory, rowEpoch: epoch)
    #expect(measured == (try store.recordedDistance(ofShift: 1)))
    #expect(memory.count == 1)
    #expect(try reader.recordedDistance(ofShift: 1, remembering: memory, rowEpoch: epoch) == measured)
    // A row in the middle of the shift goes (its first and last rows stay): the epoch moves,
    // and the figure is measured again.
    try store.database.execute("DELETE FROM samples WHERE id = (SELECT min(id) + 5 FROM samples WHERE shift_id = 1)")
    let after = try store.rowEpoch()
    #expect(after != epoch)
    epoch = after
    let shorter = try reader.recordedDistance(ofShift: 1, remembering: memory, rowEpoch: epoch)
    #expect(shorter == (try store.recordedDistance(ofShift: 1)))
    #expect(abs(shorter.metres - measured.metres) < 0.01)  // a straight line: the same length, one position fewer
    #expect(shorter.usablePositions == measured.usablePositions - 1)
    // Remembered under the key it was measured with: with an old epoch it is not used.
    #expect(memory.distance(ofShift: 1, key: .init(endedAt: at(0), firstRowID: 0, lastRowID: 0, rowEpoch: 0)) == nil)
  }
}
