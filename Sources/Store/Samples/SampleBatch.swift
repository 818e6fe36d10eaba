import DashPilotCore
import FoundationEssentials

/// A write that failed: why, and the samples it did not save (no longer pending). Capture
/// ends its session on this (the seed's "a failed save") and resets its filter to the
/// store's last sample. Rows committed earlier are untouched.
public struct SampleBatchFailure: Error, Sendable, Hashable, CustomStringConvertible {
  public var error: StoreError
  public var unsaved: [RouteSample]

  public init(error: StoreError, unsaved: [RouteSample]) {
    self.error = error
    self.unsaved = unsaved
  }

  public var description: String { "\(unsaved.count) samples not saved: \(error)" }
}

/// Collects the open shift's accepted samples and writes them in short transactions, so a
/// power cut loses at most about `policy.maximumPendingAge` of samples and a crash loses
/// none that were committed. Call `flushIfDue(at:)` from a timer as well as `append`, so a
/// lone pending sample is not held past its second when no further fix arrives.
public final class SampleBatch {
  public let store: SampleStore
  public let shiftID: Int64
  public let policy: SampleBatchPolicy
  public private(set) var pending: [RouteSample] = []
  /// When the oldest pending sample was appended, by the time passed in.
  public private(set) var oldestPendingSince: Date?

  public init(store: SampleStore, shiftID: Int64, policy: SampleBatchPolicy = SampleBatchPolicy()) {
    self.store = store
    self.shiftID = shiftID
    self.policy = policy
  }

  /// Adds `sample`, received at `now`, and writes the batch when the policy says it is due.
  /// Returns how many samples this call committed (0 while they wait). A sample that cannot
  /// be stored is refused alone (it comes back as unsaved; the pending ones stay pending).
  @discardableResult
  public func append(_ sample: RouteSample, at now: Date) throws(SampleBatchFailure) -> Int {
    do {
      _ = try EncodedSample(sample)
    } catch {
      throw SampleBatchFailure(error: error, unsaved: [sample])
    }
    if pending.isEmpty { oldestPendingSince = now }
    pending.append(sample)
    return try flushIfDue(at: now)
  }

  /// The last sample kept for the shift, pending or stored: what the filter judges the next
  /// fix against. After a failed write nothing is pending, so it is the store's last row.
  public func lastSample() throws(StoreError) -> RouteSample? {
    if let last = pending.last { return last }
    return try store.lastSample(ofShift: shiftID)
  }

  /// Writes the pending samples if the policy says they are due at `now`.
  @discardableResult
  public func flushIfDue(at now: Date) throws(SampleBatchFailure) -> Int {
    guard let oldest = oldestPendingSince,
      policy.isDue(pendingCount: pending.count, oldestPendingSince: oldest, now: now)
    else {
      return 0
    }
    let written = try flush()
    store.commitTally.committed(waited: now.timeIntervalSince(oldest), due: policy.maximumPendingAge)
    return written
  }

  /// Writes every pending sample in one transaction. On failure nothing of the batch is
  /// kept, the samples are handed back as unsaved and the batch is empty again.
  @discardableResult
  public func flush() throws(SampleBatchFailure) -> Int {
    guard !pending.isEmpty else { return 0 }
    let batch = pending
    pending = []
    oldestPendingSince = nil
    do {
      try store.append(batch, toShift: shiftID)
    } catch {
      throw SampleBatchFailure(error: error, unsaved: batch)
    }
    return batch.count
  }
}
