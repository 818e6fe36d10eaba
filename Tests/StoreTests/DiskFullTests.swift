import DashPilotCore
import Foundation
import Glibc
import TestSupport
import Testing

@testable import Store

@Suite struct DiskFullTests {
  /// Writes batches of `batchSize` until one fails; returns the committed rows and the failure.
  static func fillUntilFailure(
    _ store: SampleStore, shiftID: Int64, batchSize: Int, limit: Int
  ) -> (committed: [RouteSample], failure: SampleBatchFailure?) {
    let batch = SampleBatch(
      store: store, shiftID: shiftID, policy: SampleBatchPolicy(maximumPendingCount: batchSize))
    var committed: [RouteSample] = []
    let session = CaptureSessionID("fill")
    for k in 0..<limit {
      let sample = StoreIngestPattern.sample(k, session: session)
      do {
        if try batch.append(sample, at: at(1_800_000_000)) > 0 {
          committed.append(
            contentsOf: try storedForm(
              (k + 1 - batchSize...k).map { StoreIngestPattern.sample($0, session: session) }))
        }
      } catch let failure as SampleBatchFailure {
        return (committed, failure)
      } catch {
        return (committed, nil)
      }
    }
    return (committed, nil)
  }

  @Test func aFullDatabaseGivesATypedErrorAndKeepsEarlierRows() throws {
    let file = try TemporaryStoreFile("page-limit")
    let store = try file.open()
    let shift = try store.startShift(at: at(1_700_000_000))
    let pages = try #require(try store.database.scalarInt64("PRAGMA page_count"))
    // SQLite's own limit on the file's size: a real SQLITE_FULL from the pager.
    _ = try store.database.scalarInt64("PRAGMA max_page_count = \(pages + 8)")

    let (committed, failure) = Self.fillUntilFailure(store, shiftID: shift.id, batchSize: 10, limit: 100_000)
    let batchFailure = try #require(failure)
    guard case .diskFull(let sqlite) = batchFailure.error else {
      Issue.record("expected diskFull, got \(batchFailure.error)")
      return
    }
    #expect(sqlite.primaryResultCode == 13)
    #expect(sqlite.operation.hasPrefix("save 10 samples: "))
    #expect(batchFailure.unsaved.count == 10)
    #expect(committed.count > 100)
    #expect(committed.count % 10 == 0)
    #expect(try store.samples(ofShift: shift.id) == committed)
    #expect(try store.integrityCheck() == ["ok"])
    #expect(try store.sampleCount(ofShift: shift.id) == committed.count)

    // Room again: writing resumes where it stopped.
    _ = try store.database.scalarInt64("PRAGMA max_page_count = 1000000")
    try store.append(batchFailure.unsaved, toShift: shift.id)
    #expect(try store.samples(ofShift: shift.id).count == committed.count + 10)
  }

  @Test(.requiresTmpfs)
  func aFullFileSystemGivesATypedErrorAndKeepsEarlierRows() throws {
    let mount = try TmpfsMount(kilobytes: 512)
    defer { mount.unmount() }
    let path = mount.path + "/dashpilot.sqlite"
    var committed: [RouteSample] = []
    var shiftID: Int64 = 0
    do {
      let store = try SampleStore(path: path)
      shiftID = try store.startShift(at: at(1_700_000_000)).id
      let result = Self.fillUntilFailure(store, shiftID: shiftID, batchSize: 25, limit: 1_000_000)
      committed = result.committed
      let failure = try #require(result.failure)
      switch failure.error {
      case .diskFull(let sqlite): #expect(sqlite.primaryResultCode == 13)
      default: Issue.record("expected diskFull on a full tmpfs, got \(failure.error)")
      }
      #expect(failure.unsaved.count == 25)
      #expect(committed.count >= 100)
      #expect(committed.count % 25 == 0)
      #expect(try store.samples(ofShift: shiftID) == committed)
    }
    // The daemon restarting on the still-full disk finds every committed row.
    let reopened = try SampleStore(path: path)
    #expect(reopened.openReport.movedAside == nil)
    #expect(try reopened.integrityCheck() == ["ok"])
    #expect(try reopened.samples(ofShift: shiftID) == committed)
  }
}
