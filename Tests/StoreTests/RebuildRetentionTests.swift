import DashPilotCore
import Foundation
import TestSupport
import Testing

@testable import Store

/// Retention while a copy of the store is made (`StoreRebuild`): a shift deleted after its
/// rows were copied leaves nothing behind in the copy that is put in place, and one whose
/// deletion was under way is still marked there and is finished after the switch.
@Suite struct RebuildRetentionTests {
  @Test func aShiftDeletedDuringTheCopyIsGoneFromTheFilePutInPlace() throws {
    let file = try TemporaryStoreFile("rebuild-retention")
    do {
      let live = try file.open()
      _ = try ShiftDeletionTests.threeShifts(live)
      let rebuild = try StoreRebuild(livePath: file.path, purpose: .convert)
      var progress = try rebuild.copy(rows: 1_000)
      #expect(progress.isCopied && progress.copiedSamples == 60)
      // Retention, after every row was copied: shift 1 goes whole, shift 2 part-way.
      _ = try ShiftDeletionTests.deleteWhole(live, 1)
      var partial = try live.beginDeleting(shift: 2)
      try live.continueDeleting(&partial, rowLimit: 12)
      progress = try rebuild.catchUp()
      #expect(progress.copiedSamples == 40)
    }
    let reopened = try file.open()
    #expect(reopened.openReport.switched?.samples == 40)
    #expect(try reopened.database.textColumn("PRAGMA foreign_key_check") == [])
    #expect(try reopened.database.scalarInt64("SELECT count(*) FROM samples WHERE shift_id = 1") == 0)
    #expect(try reopened.shifts().map(\.id) == [3])
    #expect(try reopened.shiftsBeingDeleted() == [2])
    let finished = try ShiftDeletionTests.deleteWhole(reopened, 2)
    #expect(finished.samplesDeleted == 30)
    #expect(try reopened.database.textColumn("PRAGMA foreign_key_check") == [])
    #expect(try reopened.database.scalarInt64("SELECT count(*) FROM samples") == 10)
  }
}
