import DashPilotCore
import Foundation
import Store
import TestSupport
import Testing

@testable import Uplink

/// A shift deleted by retention takes its rows in the uplink's tables with it: the entries
/// still queued for it and its delivery record, looked at a window of sequences per step;
/// another shift's stay, and a file that never had an uplink is left as it is.
@Suite struct OutboxShiftRowsTests {
  static let t0: TimeInterval = 1_700_000_000

  static func deleteWhole(_ store: SampleStore, _ id: Int64, rowLimit: Int) throws -> (ShiftDeletion, [Int]) {
    var deletion = try store.beginDeleting(shift: id, companions: [OutboxShiftRows()])
    var steps: [Int] = []
    while !deletion.isFinished { steps.append(try store.continueDeleting(&deletion, rowLimit: rowLimit)) }
    return (deletion, steps)
  }

  @Test func aDeletedShiftsEntriesAndRecordGoAndNoOtherShiftsDo() throws {
    let database = try TestDatabase()
    let store = try ShiftDeliveryTests.store(at: database.path)
    // Sequences 1-4: shift 1 (session, two batches, shift); 5-8: shift 2 alike.
    try ShiftDeliveryTests.record(store, batches: 2, session: "a", start: Self.t0)
    try ShiftDeliveryTests.record(store, batches: 2, session: "b", start: Self.t0 + 1_000)
    let drain = try database.open()
    #expect(try drain.remove(sequences: [2]) == 1)
    // Sequence 9: session a's end, told of shift 1, still queued.
    try store.endCaptureSession(
      CaptureSessionID("a"), at: Date(timeIntervalSince1970: Self.t0 + 500), reason: "stopped", shiftID: 1)

    let (deletion, steps) = try Self.deleteWhole(store, 1, rowLimit: 3)
    // Samples three at a time, session a, the outbox a window of three sequences at a time
    // (1-3, 4-6, 7-9), its record, the shift's row.
    #expect(steps == [3, 3, 3, 1, 1, 2, 1, 1, 1, 1])
    #expect(deletion.companionRowsDeleted == 5)
    #expect(try drain.peek(limit: 20).map(\.sequence) == [5, 6, 7, 8])
    #expect(try drain.peek(limit: 20).compactMap(\.shiftID) == [2, 2, 2, 2])
    #expect(try DaemonDatabaseProbe.query(database.path, "SELECT shift_id FROM uplink_shift_delivery") == ["2"])
  }

  @Test func aFileWithoutTheUplinksTablesIsLeftAsItIs() throws {
    let database = try TestDatabase()
    let store = try SampleStore(path: database.path)
    let shift = try store.startShift(at: Date(timeIntervalSince1970: Self.t0))
    _ = try store.endShift(shift.id, at: Date(timeIntervalSince1970: Self.t0 + 60))
    let (deletion, steps) = try Self.deleteWhole(store, shift.id, rowLimit: 100)
    #expect(steps == [0, 0, 0, 1])
    #expect(deletion.rowsDeleted == 0)
    #expect(try store.shifts().isEmpty)
    #expect(
      try DaemonDatabaseProbe.query(database.path, "SELECT count(*) FROM sqlite_master WHERE name LIKE 'uplink%'")
        == ["0"])
  }
}
