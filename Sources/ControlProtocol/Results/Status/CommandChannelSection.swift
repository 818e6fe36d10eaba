import FoundationEssentials

/// The fleet's command channel in `status` (the uplink's `commands`): whether the box takes
/// commands over MQTT, what it was last sent and when, and what it refused.
public struct CommandChannelSection: Sendable, Hashable, Codable {
  /// The last command that came, and what became of it.
  public struct LastCommand: Sendable, Hashable, Codable {
    /// Its id; null when none could be read.
    @ExplicitNull public var id: String?
    /// Its command; null when none could be read.
    @ExplicitNull public var command: String?
    public var at: Date
    /// "ok", "running" (not answered yet), or the code it was answered or refused with.
    public var outcome: String

    public init(id: String?, command: String?, at: Date, outcome: String) {
      self.id = id
      self.command = command
      self.at = at
      self.outcome = outcome
    }
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
  @ExplicitNull public var last: LastCommand?
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
}
