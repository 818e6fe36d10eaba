import DashPilotCore
import Foundation
import TestSupport
import Testing

@testable import Store

/// Deleting a completed shift whole, a small transaction at a time: its samples, the
/// capture sessions only it names, then its row; never the open shift; never seen
/// half-deleted; taken up again after a restart; no disturbance of the open shift's live
/// figure; and space the file reuses.
@Suite struct ShiftDeletionTests {
  static let t0: TimeInterval = 1_700_000_000

  /// `count` positions from `start`, one a second, in `session`.
  static func route(_ count: Int, session: String, start: TimeInterval) -> [RouteSample] {
    straightRoute(count: count, session: CaptureSessionID(session), start: at(start))
  }

  /// Three shifts as capture leaves them when a session runs on across a shift's end:
  /// shift 1 in sessions a then b; shift 2 in b (carried on), c, then d; shift 3, open,
  /// in d. Sessions a, b and c have ended; d runs.
  static func threeShifts(_ store: SampleStore) throws -> [StoredShift] {
    var shifts: [StoredShift] = []
    var clock = t0
    for (index, sessions) in [["a", "b"], ["b", "c", "d"], ["d"]].enumerated() {
      let shift = try store.startShift(at: at(clock))
      for session in sessions {
        try store.append(route(10, session: session, start: clock), toShift: shift.id)
        clock += 10
        let ends = ["a": 0, "b": 1, "c": 1]
        if ends[session] == index {
          try store.endCaptureSession(CaptureSessionID(session), at: at(clock), reason: "connection_lost")
        }
      }
      shifts.append(index < 2 ? try store.endShift(shift.id, at: at(clock)) : shift)
      clock += 100
    }
    return shifts
  }

  static func deleteWhole(_ store: SampleStore, _ id: Int64, rowLimit: Int = 1_000) throws -> ShiftDeletion {
    var deletion = try store.beginDeleting(shift: id)
    while !deletion.isFinished { try store.continueDeleting(&deletion, rowLimit: rowLimit) }
    return deletion
  }

  static func sessionKeys(_ store: SampleStore) throws -> [String] {
    try store.captureSessions().map(\.id.rawValue)
  }

  @Test func aCompletedShiftGoesWithTheSessionsOnlyItNames() throws {
    let file = try TemporaryStoreFile("delete-shift")
    let store = try file.open()
    let shifts = try Self.threeShifts(store)
    let keptRows = try store.storedSamples(ofShift: shifts[0].id) + store.storedSamples(ofShift: shifts[2].id)

    let second = try Self.deleteWhole(store, shifts[1].id)
    #expect(second.samplesDeleted == 30)
    // b runs on from shift 1, d on into shift 3: only c was shift 2's alone.
    #expect(second.captureSessionsDeleted == 1)
    #expect(try Self.sessionKeys(store) == ["a", "b", "d"])
    #expect(try store.shifts().map(\.id) == [1, 3])

    let first = try Self.deleteWhole(store, shifts[0].id)
    #expect(first.samplesDeleted == 20)
    #expect(first.captureSessionsDeleted == 2)
    #expect(try Self.sessionKeys(store) == ["d"])
    #expect(try store.shifts().map(\.id) == [3])
    #expect(try store.storedSamples(ofShift: shifts[2].id) == Array(keptRows.suffix(10)))
    #expect(try store.database.scalarInt64("SELECT count(*) FROM samples") == 10)
    #expect(try store.database.textColumn("PRAGMA foreign_key_check") == [])
    #expect(try store.integrityCheck() == ["ok"])
    // Capture goes on in the running session, whose row was kept.
    try store.append(Self.route(3, session: "d", start: Self.t0 + 1_000), toShift: shifts[2].id)
    #expect(try store.sampleCount(ofShift: shifts[2].id) == 13)
  }

  @Test func theOpenShiftIsNeverDeleted() throws {
    let file = try TemporaryStoreFile("delete-open")
    let store = try file.open()
    let shifts = try Self.threeShifts(store)
    #expect(throws: StoreError.shiftStillOpen(shifts[2].shift)) {
      _ = try store.beginDeleting(shift: shifts[2].id)
    }
    #expect(throws: StoreError.shiftNotFound(9)) { _ = try store.beginDeleting(shift: 9) }
    #expect(try store.shiftsBeingDeleted() == [])
    #expect(try store.sampleCount(ofShift: shifts[2].id) == 10)
    #expect(try store.shifts().map(\.id) == [1, 2, 3])
  }

  @Test func rowsGoInChunksOfAtMostTheLimit() throws {
    let file = try TemporaryStoreFile("delete-chunks")
    let store = try file.open()
    let shift = try store.startShift(at: at(Self.t0))
    try store.append(Self.route(250, session: "a", start: Self.t0), toShift: shift.id)
    try store.endCaptureSession(CaptureSessionID("a"), at: at(Self.t0 + 300), reason: "stopped")
    _ = try store.endShift(shift.id, at: at(Self.t0 + 300))
    var deletion = try store.beginDeleting(shift: shift.id)
    var steps: [Int] = []
    while !deletion.isFinished { steps.append(try store.continueDeleting(&deletion, rowLimit: 100)) }
    // Samples, then the session, then the shift's row.
    #expect(steps == [100, 100, 50, 1, 1])
    #expect(deletion.rowsDeleted == 251)
    #expect(try store.captureSessions().isEmpty)
    #expect(try store.database.scalarInt64("SELECT count(*) FROM shifts") == 0)
  }

  @Test func aShiftBeingDeletedIsSeenByNoReaderAndARestartTakesItUp() throws {
    let file = try TemporaryStoreFile("delete-marked")
    do {
      let store = try file.open()
      let shifts = try Self.threeShifts(store)
      var deletion = try store.beginDeleting(shift: shifts[1].id)
      try store.continueDeleting(&deletion, rowLimit: 7)
      #expect(try store.shift(id: 2) == nil)
      #expect(try store.shifts().map(\.id) == [1, 3])
      #expect(throws: StoreError.shiftNotFound(2)) { _ = try store.recordedDistance(ofShift: 2) }
      #expect(throws: StoreError.shiftNotFound(2)) { _ = try store.samples(ofShift: 2) }
      #expect(try store.shiftsBeingDeleted() == [2])
    }
    // A power cut: the mark is what is left of the plan.
    let store = try file.open()
    #expect(try store.shifts().map(\.id) == [1, 3])
    #expect(try store.shiftsBeingDeleted() == [2])
    let resumed = try Self.deleteWhole(store, 2)
    #expect(resumed.samplesDeleted == 23)
    #expect(try store.shiftsBeingDeleted() == [])
    #expect(try store.database.scalarInt64("SELECT count(*) FROM samples WHERE shift_id = 2") == 0)
    #expect(try store.database.textColumn("PRAGMA foreign_key_check") == [])
  }

  @Test func deletingACompletedShiftLeavesTheLiveFigureAsItWas() throws {
    let file = try TemporaryStoreFile("delete-live")
    let store = try file.open()
    let shifts = try Self.threeShifts(store)
    let service = ActiveShiftRouteService(store: store)
    let before = try #require(try service.status())
    let epoch = try store.rowTally(ofShift: shifts[2].id).rowEpoch
    _ = try Self.deleteWhole(store, shifts[0].id, rowLimit: 3)
    #expect(try store.rowTally(ofShift: shifts[2].id).rowEpoch == epoch)
    try store.append(Self.route(5, session: "d", start: Self.t0 + 1_000), toShift: shifts[2].id)
    let after = try #require(try service.status())
    #expect(service.measurement?.freshStarts == 0)
    #expect(after.rowsMeasured == before.rowsMeasured + 5)
    // Any other delete of sample rows still makes it measure again.
    try store.database.execute(
      "DELETE FROM samples WHERE shift_id = 2 AND id = (SELECT max(id) FROM samples WHERE shift_id = 2)")
    #expect(try store.rowTally(ofShift: shifts[2].id).rowEpoch == epoch + 1)
  }

  /// Space freed by deleted shifts is reused: deleting the oldest half of the history and
  /// recording as much again, round after round, leaves the file the size it was (SQLite's
  /// free pages; the file does not shrink), within the few pages the tree's shape moves by:
  /// pages above the deleted rows stay part empty until later deletions empty them, and an
  /// id is a varint, a byte longer past each power of 128. Without the deletions the file
  /// would have grown fourfold.
  @Test func theFileStopsGrowingOnceShiftsAreDeleted() throws {
    let file = try TemporaryStoreFile("delete-flat")
    let store = try file.open()
    var clock = Self.t0
    var recorded = 0
    func recordShift() throws {
      let session = "s\(recorded)"
      recorded += 1
      let shift = try store.startShift(at: at(clock))
      try store.append(Self.route(800, session: session, start: clock), toShift: shift.id)
      clock += 800
      try store.endCaptureSession(CaptureSessionID(session), at: at(clock), reason: "stopped")
      _ = try store.endShift(shift.id, at: at(clock))
      clock += 1_000
    }
    for _ in 0..<8 { try recordShift() }
    try store.checkpoint()
    let initial = try #require(try store.database.scalarInt64("PRAGMA page_count"))
    var pages: [Int64] = []
    for round in 0..<6 {
      for id in Int64(round * 4 + 1)...Int64(round * 4 + 4) { _ = try Self.deleteWhole(store, id, rowLimit: 300) }
      #expect(try store.database.scalarInt64("PRAGMA freelist_count") ?? 0 > initial / 3)
      for _ in 0..<4 { try recordShift() }
      try store.checkpoint()
      pages.append(try #require(try store.database.scalarInt64("PRAGMA page_count")))
    }
    #expect(pages.allSatisfy { $0 <= initial + initial / 20 }, "\(initial) then \(pages)")
    #expect(try store.shifts().map(\.id) == Array(25...32))
    #expect(try store.database.scalarInt64("SELECT count(*) FROM samples") == 6_400)
  }
}
