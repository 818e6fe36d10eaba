/// At most `limit` commands in any `seconds` (a sliding window on the monotonic clock):
/// the documented rate a box takes commands at. Beyond it a command is answered `busy` at
/// once, never queued, so a flood costs the box a refusal each and nothing more. Pure: the
/// caller passes the time.
public struct CommandRateWindow: Sendable, Hashable {
  /// Ten a second: far above what a dispatcher sends a car (a destination, a shift end),
  /// far below what would cost capture anything.
  public static let commandsPerSecond = 10

  public let limit: Int
  public let seconds: Double
  /// When (monotonic) each of the last `limit` admitted commands came, oldest first.
  private var admitted: [Double] = []

  public init(limit: Int = CommandRateWindow.commandsPerSecond, seconds: Double = 1) {
    self.limit = max(1, limit)
    self.seconds = seconds
  }

  /// Whether a command arriving at `now` is within the rate; counts it if so.
  public mutating func admit(at now: Double) -> Bool {
    admitted.removeAll { $0 <= now - seconds }
    guard admitted.count < limit else { return false }
    admitted.append(now)
    return true
  }
}
