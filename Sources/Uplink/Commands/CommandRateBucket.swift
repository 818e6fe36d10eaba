import DashPilotCore

/// The rate a box takes fleet commands at, as a token bucket on the monotonic clock: it
/// holds up to `burst` commands' worth and refills at `perSecond`. An office that sends a
/// day's jobs one by one, at once (a queue's worth: `JobQueue.bound`), is taken whole; a
/// sender that keeps on past the burst gets `perSecond`, and the rest of a flood is answered
/// `busy` at once, never queued, so it costs the box a refusal each and nothing more. Pure:
/// the caller passes the time.
public struct CommandRateBucket: Sendable, Hashable {
  /// Ten a second once the burst is spent: far above what a dispatcher sends a car (a
  /// destination, a shift end), far below what would cost capture anything.
  public static let commandsPerSecond = 10
  /// A full queue of jobs, each its own `job.assign`, sent in one go.
  public static let defaultBurst = JobQueue.bound

  public let burst: Int
  public let perSecond: Int
  /// Commands that may come now; refilled by the time since `filledAt`.
  private var tokens: Double
  private var filledAt: Double?

  public init(burst: Int = CommandRateBucket.defaultBurst, perSecond: Int = CommandRateBucket.commandsPerSecond) {
    self.burst = max(1, burst)
    self.perSecond = max(1, perSecond)
    tokens = Double(self.burst)
  }

  /// Whether a command arriving at `now` (monotonic seconds) is within the rate; takes its
  /// token if so.
  public mutating func admit(at now: Double) -> Bool {
    if let filledAt {
      // A reading earlier than the last (it cannot happen on a monotonic clock) refills nothing.
      tokens = min(Double(burst), tokens + max(0, now - filledAt) * Double(perSecond))
    }
    filledAt = max(filledAt ?? now, now)
    // A whole token, give or take the rounding of seconds times the rate.
    guard tokens >= 1 - 1e-9 else { return false }
    tokens = max(0, tokens - 1)
    return true
  }
}
