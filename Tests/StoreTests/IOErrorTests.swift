import DashPilotCore
import Foundation
import TestSupport
import Testing

@testable import Store

/// Real SQLite on the real file system, with the disk failing under it (`FailingVFS`).
/// Serialized: the injected failure is one switch for the whole VFS.
@Suite(.serialized) struct IOErrorTests {
  @Test(arguments: [FailingVFS.Failure.write, .sync])
  func aFailingDiskGivesATypedErrorAndKeepsCommittedRows(failure: FailingVFS.Failure) throws {
    #expect(FailingVFS.registered)
    let file = try TemporaryStoreFile("ioerr")
    let store = try SampleStore(path: file.path, now: at(1_800_000_000), vfs: FailingVFS.name)
    let shift = try store.startShift(at: at(1_700_000_000))
    let route = straightRoute(count: 30)
    let batch = SampleBatch(store: store, shiftID: shift.id, policy: SampleBatchPolicy(maximumPendingCount: 10))
    for sample in route[0..<20] { try batch.append(sample, at: at(1_800_000_000)) }

    FailingVFS.failure = failure
    defer { FailingVFS.failure = .none }
    var caught: SampleBatchFailure?
    for sample in route[20..<30] {
      do { try batch.append(sample, at: at(1_800_000_000)) } catch { caught = error }
    }
    FailingVFS.failure = .none

    let batchFailure = try #require(caught)
    guard case .ioError(let sqlite) = batchFailure.error else {
      Issue.record("expected ioError, got \(batchFailure.error)")
      return
    }
    #expect(sqlite.resultCode == (failure == .write ? FailingVFS.writeError : FailingVFS.syncError))
    #expect(sqlite.operation.hasPrefix("save 10 samples: "))
    #expect(batchFailure.unsaved == Array(route[20..<30]))
    #expect(try store.samples(ofShift: shift.id) == storedForm(Array(route[0..<20])))

    // The disk recovers: the same connection writes again, and a fresh one finds it all.
    try store.append(batchFailure.unsaved, toShift: shift.id)
    #expect(try store.samples(ofShift: shift.id) == storedForm(route))
    let reopened = try file.open()
    #expect(reopened.openReport.movedAside == nil)
    #expect(try reopened.integrityCheck() == ["ok"])
    #expect(try reopened.samples(ofShift: shift.id) == storedForm(route))
  }
}
