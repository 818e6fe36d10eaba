/// How long the source waits before reopening gpsd after it went away: 1 s doubling to
/// 30 s, with jitter so that several clients on one box do not knock on gpsd together.
/// A pure value: the randomness is passed in, so the schedule is tested exactly.
public struct ReconnectBackoff: Sendable, Hashable {
  public var initialDelay: Double
  public var maximumDelay: Double
  /// Each delay is shortened by up to this fraction of itself (0.2: a 30 s wait becomes
  /// 24-30 s). Shortening, never lengthening, keeps the promise of "at most 30 s".
  public var jitterFraction: Double
  /// Failed attempts since the last successful connection.
  public private(set) var failures: Int = 0

  public init(initialDelay: Double = 1, maximumDelay: Double = 30, jitterFraction: Double = 0.2) {
    self.initialDelay = max(0.001, initialDelay)
    self.maximumDelay = max(self.initialDelay, maximumDelay)
    self.jitterFraction = min(1, max(0, jitterFraction))
  }

  /// The delay before the next attempt, before jitter: initial × 2^failures, capped.
  public var baseDelay: Double {
    var delay = initialDelay
    var doublings = 0
    while doublings < failures, delay < maximumDelay {
      delay *= 2
      doublings += 1
    }
    return min(delay, maximumDelay)
  }

  /// Records a failure (connection refused or lost) and returns how long to wait;
  /// `unitRandom` is a number in 0..<1 (out-of-range values are clamped).
  public mutating func nextDelay(unitRandom: Double) -> Double {
    let delay = baseDelay
    failures += 1
    let r = unitRandom.isFinite ? min(max(unitRandom, 0), 1) : 0
    return delay * (1 - jitterFraction * r)
  }

  /// A connection that delivered a report: the next failure waits the initial delay again.
  public mutating func reset() { failures = 0 }
}
