import DashPilotCore
import Foundation
import TestSupport
import Testing

@testable import Store

@Suite struct SampleBatchTests {
  @Test func thePolicyFlushesOnAgeCountOrAClockThatSteppedBack() {
    let policy = SampleBatchPolicy(maximumPendingAge: 1, maximumPendingCount: 4)
    let t = at(1_700_000_000)
    #expect(!policy.isDue(pendingCount: 0, oldestPendingSince: nil, now: t))
    #expect(!policy.isDue(pendingCount: 1, oldestPendingSince: t, now: t))
    #expect(!policy.isDue(pendingCount: 3, oldestPendingSince: t, now: t + 0.999))
    #expect(policy.isDue(pendingCount: 1, oldestPendingSince: t, now: t + 1))
    #expect(policy.isDue(pendingCount: 4, oldestPendingSince: t, now: t))
    #expect(policy.isDue(pendingCount: 1, oldestPendingSince: t, now: t - 5))
    #expect(SampleBatchPolicy(maximumPendingCount: 0).maximumPendingCount == 1)
  }

  @Test func samplesWaitUntilTheOldestIsASecondOld() throws {
    let file = try TemporaryStoreFile("batch-age")
    let store = try file.open()
    let shift = try store.startShift(at: at(1_700_000_000))
    let batch = SampleBatch(store: store, shiftID: shift.id)
    let route = straightRoute(count: 4)
    let t = at(1_800_000_000)
    #expect(try batch.lastSample() == nil)
    #expect(try batch.append(route[0], at: t) == 0)
    #expect(try batch.append(route[1], at: t + 0.5) == 0)
    #expect(try batch.lastSample() == route[1])
    #expect(try store.samples(ofShift: shift.id).isEmpty)
    #expect(try batch.flushIfDue(at: t + 0.9) == 0)
    #expect(try batch.flushIfDue(at: t + 1.0) == 2)
    #expect(try store.samples(ofShift: shift.id).count == 2)
    #expect(batch.pending.isEmpty)
    #expect(try batch.append(route[2], at: t + 1.2) == 0)
    #expect(try batch.append(route[3], at: t + 2.2) == 2)
    #expect(try store.samples(ofShift: shift.id) == storedForm(route))
  }

  @Test func aFullBatchIsWrittenAtOnce() throws {
    let file = try TemporaryStoreFile("batch-count")
    let store = try file.open()
    let shift = try store.startShift(at: at(1_700_000_000))
    let batch = SampleBatch(store: store, shiftID: shift.id, policy: SampleBatchPolicy(maximumPendingCount: 3))
    let route = straightRoute(count: 7)
    let t = at(1_800_000_000)
    let committed = try route.map { (sample) throws -> Int in try batch.append(sample, at: t) }
    #expect(committed == [0, 0, 3, 0, 0, 3, 0])
    #expect(batch.pending == [route[6]])
    #expect(try batch.flush() == 1)
    #expect(try batch.flush() == 0)
    #expect(try store.samples(ofShift: shift.id) == storedForm(route))
  }

  @Test func anUnstorableSampleIsRefusedAloneAndThePendingOnesStay() throws {
    let file = try TemporaryStoreFile("batch-invalid")
    let store = try file.open()
    let shift = try store.startShift(at: at(1_700_000_000))
    let batch = SampleBatch(store: store, shiftID: shift.id)
    let route = straightRoute(count: 2)
    var bad = route[1]
    bad.horizontalAccuracy = -3
    try batch.append(route[0], at: at(1_800_000_000))
    let failure = #expect(throws: SampleBatchFailure.self) { try batch.append(bad, at: at(1_800_000_000)) }
    #expect(failure?.unsaved == [bad])
    #expect(batch.pending == [route[0]])
    #expect(try batch.flush() == 1)
  }

  @Test func aFailedWriteHandsBackTheBatchAndKeepsEarlierRows() throws {
    let file = try TemporaryStoreFile("batch-fail")
    let store = try file.open()
    let shift = try store.startShift(at: at(1_700_000_000))
    let batch = SampleBatch(store: store, shiftID: shift.id, policy: SampleBatchPolicy(maximumPendingCount: 2))
    let route = straightRoute(count: 5)
    let t = at(1_800_000_000)
    try batch.append(route[0], at: t)
    try batch.append(route[1], at: t)
    try batch.append(route[2], at: t)
    // The shift is ended under the batch (as a second writer would), so the write fails.
    let ended = try store.endShift(shift.id, at: at(1_700_000_100))
    let failure = #expect(throws: SampleBatchFailure.self) { try batch.append(route[3], at: t) }
    #expect(failure?.error == .shiftAlreadyEnded(ended.shift))
    #expect(failure?.unsaved == [route[2], route[3]])
    #expect(batch.pending.isEmpty)
    // The filter resumes from what was really kept.
    #expect(try batch.lastSample() == (try SampleStore.storedForm(of: route[1])))
    #expect(try store.samples(ofShift: shift.id) == storedForm([route[0], route[1]]))
  }
}
