import ControlProtocol
import FoundationEssentials
import PlatformSupport

/// Where and how the box publishes to the fleet's MQTT broker: the `[Uplink]` section of
/// the daemon's config. The uplink is off unless the section names a broker, so a box that
/// serves one car never opens a connection it was not asked to make.
public struct UplinkConfiguration: Sendable, Hashable {
  public var host: String
  public var port: Int
  /// Identifies the car to the fleet; one MQTT topic level, so no `/`, `+` or `#`.
  public var vehicleID: String
  public var clientID: String
  public var username: String?
  /// A file holding the password on its first line, so the secret stays out of the config
  /// file that installers copy around.
  public var passwordFile: String?
  /// The certificate authority that signed the broker's certificate; TLS is on when set.
  public var caFile: String?
  public var certFile: String?
  public var keyFile: String?
  /// 1 by default: at-least-once, with an entry removed only after the broker's PUBACK.
  public var qos: Int
  public var topicPrefix: String
  /// The most entries the outbox keeps; past it the oldest are dropped, with a log line.
  public var outboxBound: Int
  /// Seconds between MQTT keepalive pings.
  public var keepalive: Int
  /// Seconds between retained live-status messages at most.
  public var liveInterval: TimeInterval
  /// Reconnect back-off bounds, in whole seconds (libmosquitto's resolution).
  public var reconnectDelay: Int
  public var reconnectDelayMax: Int
  /// Whether the box takes commands from the fleet on `PREFIX/command` (off unless
  /// `AcceptCommands=yes`): the broker's ACL decides who may send them, this list what
  /// they may be.
  public var acceptCommands: Bool
  /// The commands taken over MQTT, by the socket's names; anything else is `not_allowed`.
  public var allowedCommands: Set<ControlCommand.Kind>

  public static let defaultPort = 1883
  public static let defaultTLSPort = 8883
  public static let defaultOutboxBound = 100_000

  public init(
    host: String, port: Int? = nil, vehicleID: String, clientID: String? = nil,
    username: String? = nil, passwordFile: String? = nil, caFile: String? = nil,
    certFile: String? = nil, keyFile: String? = nil, qos: Int = 1, topicPrefix: String? = nil,
    outboxBound: Int = UplinkConfiguration.defaultOutboxBound, keepalive: Int = 30,
    liveInterval: TimeInterval = 30, reconnectDelay: Int = 1, reconnectDelayMax: Int = 60,
    acceptCommands: Bool = false, allowedCommands: Set<ControlCommand.Kind> = UplinkConfiguration.defaultAllowedCommands
  ) {
    self.host = host
    self.port = port ?? (caFile == nil ? Self.defaultPort : Self.defaultTLSPort)
    self.vehicleID = vehicleID
    self.clientID = clientID ?? "dashpilot-\(vehicleID)"
    self.username = username
    self.passwordFile = passwordFile
    self.caFile = caFile
    self.certFile = certFile
    self.keyFile = keyFile
    self.qos = qos
    self.topicPrefix = topicPrefix ?? "dashpilot/\(vehicleID)"
    self.outboxBound = outboxBound
    self.keepalive = keepalive
    self.liveInterval = liveInterval
    self.reconnectDelay = reconnectDelay
    self.reconnectDelayMax = reconnectDelayMax
    self.acceptCommands = acceptCommands
    self.allowedCommands = allowedCommands
  }

  /// What a dispatcher needs: the car's state, its shift, where it should drive and the
  /// jobs it should do; and what the office missed of a shift (`shift.resend` sends it only
  /// what the box sends it anyway).
  public static let defaultAllowedCommands: Set<ControlCommand.Kind> = [
    .status, .shiftStart, .shiftEnd, .shiftResend, .navigate, .routeLoad, .routeClear, .jobAssign, .jobAssignAll,
    .jobCancel, .jobList,
  ]

  public var usesTLS: Bool { caFile != nil }

  /// The full topic of one kind of message: `dashpilot/van-7/samples`.
  public func topic(_ kind: UplinkTopic) -> String { "\(topicPrefix)/\(kind.rawValue)" }

  /// Checks every field without touching the file system or the network; the first
  /// problem found is thrown, naming the config key.
  public func validate() throws(UplinkConfigurationError) {
    func fail(_ key: Key, _ value: String, _ reason: String) -> UplinkConfigurationError {
      UplinkConfigurationError(key: key, value: value, reason: reason)
    }
    if host.trimmingSpacesAndTabs.isEmpty || host.contains(" ") {
      throw fail(.host, host, "must be a broker host name or address without spaces")
    }
    if !(1...65535).contains(port) { throw fail(.port, String(port), "must be between 1 and 65535") }
    if let problem = Self.topicLevelProblem(vehicleID) { throw fail(.vehicleID, vehicleID, problem) }
    if clientID.isEmpty || clientID.utf8.count > 65535 {
      throw fail(.clientID, clientID, "must be between 1 and 65535 bytes")
    }
    if let username, username.isEmpty { throw fail(.username, username, "must not be empty when set") }
    if passwordFile != nil && username == nil {
      throw fail(.passwordFile, passwordFile ?? "", "needs a \(Key.username.rawValue) beside it")
    }
    if (certFile == nil) != (keyFile == nil) {
      throw fail(
        certFile == nil ? .certFile : .keyFile, "",
        "is missing: a client certificate needs both \(Key.certFile.rawValue) and \(Key.keyFile.rawValue)")
    }
    if certFile != nil && caFile == nil {
      throw fail(.certFile, certFile ?? "", "a client certificate needs TLS: set \(Key.caFile.rawValue) too")
    }
    for (key, path) in [
      (Key.passwordFile, passwordFile), (.caFile, caFile), (.certFile, certFile), (.keyFile, keyFile),
    ] {
      if let path, path.isEmpty { throw fail(key, path, "must be a file path when set") }
    }
    if !(0...2).contains(qos) { throw fail(.qos, String(qos), "must be 0, 1 or 2") }
    if let problem = Self.topicPrefixProblem(topicPrefix) { throw fail(.topicPrefix, topicPrefix, problem) }
    if outboxBound < 1 { throw fail(.outboxBound, String(outboxBound), "must be at least 1") }
    if !(5...65535).contains(keepalive) {
      throw fail(.keepAlive, String(keepalive), "must be between 5 and 65535 seconds")
    }
    if !(liveInterval >= 1) || !liveInterval.isFinite {
      throw fail(.liveInterval, String(liveInterval), "must be at least 1 second")
    }
    if reconnectDelay < 1 { throw fail(.reconnectDelay, String(reconnectDelay), "must be at least 1 second") }
    if reconnectDelayMax < reconnectDelay {
      throw fail(
        .reconnectDelayMax, String(reconnectDelayMax), "must be at least \(Key.reconnectDelay.rawValue)")
    }
    if allowedCommands.contains(.events) {
      throw fail(
        .allowedCommands, ControlCommand.Kind.events.rawValue,
        "events cannot be followed over MQTT: the events topic carries them (docs/uplink-messages.md)")
    }
  }

  static func topicLevelProblem(_ level: String) -> String? {
    if level.isEmpty { return "must not be empty" }
    if level.contains(where: { "/+#".contains($0) }) {
      return "must not contain '/', '+' or '#' (it is one MQTT topic level)"
    }
    if level.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
      return "must not contain control characters"
    }
    return nil
  }

  static func topicPrefixProblem(_ prefix: String) -> String? {
    if prefix.isEmpty { return "must not be empty" }
    if prefix.hasPrefix("/") || prefix.hasSuffix("/") { return "must not begin or end with '/'" }
    if prefix.hasPrefix("$") { return "must not begin with '$' (reserved by brokers)" }
    if prefix.contains(where: { "+#".contains($0) }) { return "must not contain the wildcards '+' or '#'" }
    if prefix.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
      return "must not contain control characters"
    }
    return nil
  }
}

/// A bad `[Uplink]` setting: which key, what it held and what it must be.
public struct UplinkConfigurationError: Error, Sendable, Hashable, CustomStringConvertible {
  public var key: String
  public var value: String
  public var reason: String

  public var description: String { "[Uplink] \(key) = \"\(value)\": \(reason)" }
}

/// The topic levels under the prefix.
public enum UplinkTopic: String, Sendable, Hashable, CaseIterable {
  case samples, shift, session, stop, status, live, events, reply
  /// The one topic the box reads (with `AcceptCommands=yes`).
  case command
}
