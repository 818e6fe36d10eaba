import FoundationEssentials

/// What `dashpilotctl status` shows of the uplink.
public struct UplinkStatus: Sendable, Hashable {
  /// "host:port" of the broker.
  public var broker: String
  public var connected: Bool
  /// Entries waiting in the outbox (including those in flight).
  public var outboxDepth: Int
  /// Seconds since the oldest unsent entry was queued; nil when the outbox is empty.
  public var oldestUnsentAge: TimeInterval?
  /// Entries published and waiting for the broker's acknowledgement.
  public var inFlight: Int
  /// The last thing that went wrong, in words; cleared by a successful connection.
  public var lastError: String?
  public var lastAcknowledgedAt: Date?
  /// What the command channel refused before anything ran (the uplink's queue's count).
  public var commands: CommandTally

  public init(
    broker: String, connected: Bool, outboxDepth: Int, oldestUnsentAge: TimeInterval?, inFlight: Int,
    lastError: String?, lastAcknowledgedAt: Date?, commands: CommandTally = CommandTally()
  ) {
    self.commands = commands
    self.broker = broker
    self.connected = connected
    self.outboxDepth = outboxDepth
    self.oldestUnsentAge = oldestUnsentAge
    self.inFlight = inFlight
    self.lastError = lastError
    self.lastAcknowledgedAt = lastAcknowledgedAt
  }

  /// One line for a terminal: "connected to broker:1883 · outbox 0", or with the age of
  /// what is waiting and the last error.
  public var summary: String {
    var parts = [connected ? "connected to \(broker)" : "not connected to \(broker)"]
    if outboxDepth == 0 {
      parts.append("outbox empty")
    } else {
      var outbox = "outbox \(outboxDepth) waiting"
      if let oldestUnsentAge { outbox += ", oldest \(Self.age(oldestUnsentAge))" }
      parts.append(outbox)
    }
    if let lastError { parts.append("last error: \(lastError)") }
    return parts.joined(separator: " · ")
  }

  static func age(_ seconds: TimeInterval) -> String {
    let whole = Int(max(0, seconds.isFinite ? seconds : 0))
    if whole < 120 { return "\(whole) s" }
    if whole < 7200 { return "\(whole / 60) min" }
    if whole < 172_800 { return "\(whole / 3600) h" }
    return "\(whole / 86400) days"
  }
}

/// A line for the journal, with how loud it should be.
public struct UplinkLogLine: Sendable, Hashable {
  public enum Level: String, Sendable, Hashable {
    case info, warning, error
  }

  public var level: Level
  public var message: String

  public init(_ level: Level, _ message: String) {
    self.level = level
    self.message = message
  }
}
