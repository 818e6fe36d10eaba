import FoundationEssentials

/// The fleet's command channel in `status` (the uplink's `commands`): whether the box takes
/// commands over MQTT, what it was last sent and when, and what it refused.
public struct CommandChannelSection: Sendable, Hashable, Codable {
  /// The last command that came, and what became of it.
  public struct LastCommand: Sendable, Hashable, Codable {
    /// Its id; null when none could be read.
    public var id: String?
    /// Its command; null when none could be read.
    public var command: String?
    public var at: Date
    /// "ok", "running" (not answered yet), or the code it was answered or refused with.
    public var outcome: String

    public init(id: String?, command: String?, at: Date, outcome: String) {
      self.id = id
      self.command = command
      self.at = at
      self.outcome = outcome
    }

    public func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(id, forKey: .id)
      try container.encode(command, forKey: .command)
      try container.encode(at, forKey: .at)
      try container.encode(outcome, forKey: .outcome)
    }

    enum CodingKeys: String, CodingKey { case id, command, at, outcome }
  }

  /// `AcceptCommands=yes`: the box reads `topic`.
  public var accepting: Bool
  public var topic: String
  /// The commands taken, sorted.
  public var allowed: [String]
  /// Messages that came on the topic since the daemon started.
  public var received: Int
  /// Of those, the ones answered `ok`.
  public var succeeded: Int
  /// Error replies, and refusals no reply could carry, by code (`busy`, `expired`, ...).
  public var refused: [String: Int]
  public var last: LastCommand?
  /// The one line `dashpilotctl status` shows.
  public var summary: String

  public init(
    accepting: Bool, topic: String, allowed: [String], received: Int, succeeded: Int, refused: [String: Int],
    last: LastCommand?, summary: String
  ) {
    self.accepting = accepting
    self.topic = topic
    self.allowed = allowed
    self.received = received
    self.succeeded = succeeded
    self.refused = refused
    self.last = last
    self.summary = summary
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(accepting, forKey: .accepting)
    try container.encode(topic, forKey: .topic)
    try container.encode(allowed, forKey: .allowed)
    try container.encode(received, forKey: .received)
    try container.encode(succeeded, forKey: .succeeded)
    try container.encode(refused, forKey: .refused)
    try container.encode(last, forKey: .last)
    try container.encode(summary, forKey: .summary)
  }

  enum CodingKeys: String, CodingKey { case accepting, topic, allowed, received, succeeded, refused, last, summary }
}
