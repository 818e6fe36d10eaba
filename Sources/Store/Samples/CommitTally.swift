import FoundationEssentials

/// How capture's timed commits kept their time: each batch is due once its oldest sample
/// has waited the policy's `maximumPendingAge`, and a commit after that is late by the
/// difference (a loop stalled by a long request would show here first). Kept by the store
/// for status, since the process started; nothing of it is written.
public struct CommitTally: Sendable, Hashable {
  /// A commit this long past its due time or more is counted late.
  public static let lateAfter: TimeInterval = 1

  public private(set) var commits = 0
  public private(set) var late = 0
  /// The most a commit came after its due time, seconds.
  public private(set) var worstDelay: TimeInterval = 0

  public init() {}

  /// A timed commit of samples whose oldest waited `waited` seconds, due after `due`.
  public mutating func committed(waited: TimeInterval, due: TimeInterval) {
    commits += 1
    let delay = max(0, waited - due)
    guard delay.isFinite else { return }
    worstDelay = max(worstDelay, delay)
    if delay >= Self.lateAfter { late += 1 }
  }
}
