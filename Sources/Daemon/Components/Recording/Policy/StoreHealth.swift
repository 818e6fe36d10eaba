import ControlProtocol
import FoundationEssentials

/// The store's health as status and the watchdog see it, and when to try a failing store
/// again. Pure: every time is monotonic seconds passed in (a back-off must not wait years
/// because the wall clock was stepped back, nor a short failure look five minutes old).
///
/// - A failed write is announced when the store goes from working to failing, or the error
///   changes: once, not once a second while the disk stays full.
/// - While capture holds on a failed save, the tick tries the store again: first
///   `firstRetry` after the first tick that sees the hold, then twice as long each time it
///   still fails, up to `retryLimit`.
/// - A store failing for `failingLimit` without one good write is not making progress, so
///   systemd restarts the daemon and the file is opened afresh; a full disk is exempt, as a
///   restart cannot cure it.
struct StoreHealth {
  static let failingLimit: TimeInterval = 300
  static let firstRetry: TimeInterval = 1
  static let retryLimit: TimeInterval = 30

  /// What status shows as the store's last error; nil while it works.
  private(set) var error: String?
  private var failingSince: TimeInterval?
  private var failureCurable = true
  private var retry: (due: TimeInterval, interval: TimeInterval)?

  /// A write failed: the report to announce, when this is news.
  mutating func writeFailed(_ reason: String, diskFull: Bool, shift: Int64?, at now: TimeInterval) -> EventReport? {
    if failingSince == nil { failingSince = now }
    failureCurable = !diskFull
    guard error != reason else { return nil }
    error = reason
    return EventReport(
      .storeError(.init(shift: shift, reason: reason)), "store write failed: \(reason)", priority: .error)
  }

  /// A write succeeded: the report to announce, when the store had been failing.
  mutating func writeSucceeded() -> EventReport? {
    guard failingSince != nil || error != nil else { return nil }
    let previous = error ?? "an error"
    failingSince = nil
    error = nil
    return EventReport(.storeRecovered, "store writes succeed again (after: \(previous))")
  }

  /// A read for status failed: shown until a write succeeds, not announced.
  mutating func readFailed(_ reason: String) {
    error = error ?? reason
  }

  /// The tick: whether to try the store now. `holding` says whether capture holds on a
  /// failed save; when it does not, there is nothing to retry.
  mutating func isRetryDue(holding: Bool, at now: TimeInterval) -> Bool {
    guard holding else {
      retry = nil
      return false
    }
    let current = retry ?? (due: now + Self.firstRetry, interval: Self.firstRetry)
    retry = current
    return now >= current.due
  }

  /// The retry's write failed again: wait twice as long (up to the limit).
  mutating func retryFailed(at now: TimeInterval) {
    let interval = min((retry?.interval ?? Self.firstRetry) * 2, Self.retryLimit)
    retry = (due: now + interval, interval: interval)
  }

  /// The retry's write succeeded, or capture started afresh: no back-off.
  mutating func resetRetry() {
    retry = nil
  }

  func isMakingProgress(at now: TimeInterval) -> Bool {
    guard let failingSince, failureCurable else { return true }
    return now - failingSince <= Self.failingLimit
  }
}
