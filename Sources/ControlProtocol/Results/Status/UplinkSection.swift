/// The fleet uplink's state: whether the broker is connected, what waits in the outbox,
/// and the last thing that went wrong.
public struct UplinkSection: Sendable, Hashable, Codable {
  /// "host:port" of the broker.
  public var broker: String
  public var connected: Bool
  public var outboxDepth: Int
  /// Seconds since the oldest unsent entry was queued; null when the outbox is empty.
  @ExplicitNull public var oldestUnsentAgeSeconds: Double?
  public var inFlight: Int
  @ExplicitNull public var lastError: String?
  /// The one line `dashpilotctl status` shows.
  public var summary: String
  /// The fleet's command channel; absent from a daemon older than it.
  public var commands: CommandChannelSection?

  public init(
    broker: String, connected: Bool, outboxDepth: Int, oldestUnsentAgeSeconds: Double?, inFlight: Int,
    lastError: String?, summary: String, commands: CommandChannelSection? = nil
  ) {
    self.broker = broker
    self.connected = connected
    self.outboxDepth = outboxDepth
    self.oldestUnsentAgeSeconds = oldestUnsentAgeSeconds
    self.inFlight = inFlight
    self.lastError = lastError
    self.summary = summary
    self.commands = commands
  }

  enum CodingKeys: String, CodingKey {
    case broker, connected, commands
    case outboxDepth = "outbox_depth"
    case oldestUnsentAgeSeconds = "oldest_unsent_age_seconds"
    case inFlight = "in_flight"
    case lastError = "last_error"
    case summary
  }
}
