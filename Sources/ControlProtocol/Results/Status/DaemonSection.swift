import FoundationEssentials

/// The daemon itself in `status`: which build, since when, where it listens and what it
/// read.
public struct DaemonSection: Sendable, Hashable, Codable {
  public var version: String
  public var pid: Int32
  public var startedAt: Date
  public var uptimeSeconds: Double
  public var socket: String
  /// The configuration file read at start-up, null when the defaults were used.
  @ExplicitNull public var config: String?
  /// "running", or "stopping" once SIGTERM arrived.
  public var state: String
  /// The configured display unit ("miles" or "kilometres"), for figures status shows.
  public var units: String
  /// Whether the kernel says the wall clock is synchronised (adjtimex), as the daemon last
  /// read it; absent from a daemon that does not say.
  public var clockSynchronised: Bool?

  public init(
    version: String, pid: Int32, startedAt: Date, uptimeSeconds: Double, socket: String,
    config: String?, state: String, units: String, clockSynchronised: Bool? = nil
  ) {
    self.version = version
    self.pid = pid
    self.startedAt = startedAt
    self.uptimeSeconds = uptimeSeconds
    self.socket = socket
    self.config = config
    self.state = state
    self.units = units
    self.clockSynchronised = clockSynchronised
  }

  enum CodingKeys: String, CodingKey {
    case version, pid, socket, config, state, units
    case startedAt = "started_at"
    case uptimeSeconds = "uptime_seconds"
    case clockSynchronised = "clock_synchronised"
  }
}
