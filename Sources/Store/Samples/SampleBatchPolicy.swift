import FoundationEssentials

/// When pending samples are written. A power cut loses what is pending, so the oldest
/// pending sample is never kept waiting longer than `maximumPendingAge`; each commit costs
/// an fsync (synchronous=FULL), so samples are not committed one by one either.
public struct SampleBatchPolicy: Sendable, Hashable {
  /// Flush once the oldest pending sample has waited this long (by the time passed in).
  public var maximumPendingAge: TimeInterval
  /// Flush once this many samples are pending.
  public var maximumPendingCount: Int

  public init(maximumPendingAge: TimeInterval = 1, maximumPendingCount: Int = 32) {
    self.maximumPendingAge = maximumPendingAge
    self.maximumPendingCount = max(1, maximumPendingCount)
  }

  /// Whether `pendingCount` samples, the oldest pending since `oldestPendingSince`, are due
  /// at `now`. A clock that stepped backwards makes them due too: waiting for it to catch
  /// up could hold samples far longer than a second.
  public func isDue(pendingCount: Int, oldestPendingSince: Date?, now: Date) -> Bool {
    guard pendingCount > 0, let oldest = oldestPendingSince else { return false }
    if pendingCount >= maximumPendingCount { return true }
    let waited = now.timeIntervalSince(oldest)
    return waited >= maximumPendingAge || waited < 0 || waited.isNaN
  }
}
