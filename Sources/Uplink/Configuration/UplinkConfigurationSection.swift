import ControlProtocol
import FoundationEssentials
import PlatformSupport

extension UplinkConfiguration {
  /// The `[Uplink]` section's keys, in the style of every other section and of systemd's
  /// own units: CamelCase, matched exactly, an acronym in capitals as systemd writes
  /// `PIDFile=` (`VehicleID=`, `ClientID=`, `CAFile=`), QoS as MQTT spells it.
  public enum Key: String, CaseIterable, Sendable {
    case enabled = "Enabled"
    case host = "Host"
    case port = "Port"
    case vehicleID = "VehicleID"
    case clientID = "ClientID"
    case username = "Username"
    case passwordFile = "PasswordFile"
    case caFile = "CAFile"
    case certFile = "CertFile"
    case keyFile = "KeyFile"
    case qos = "QoS"
    case topicPrefix = "TopicPrefix"
    case outboxBound = "OutboxBound"
    case keepAlive = "KeepAlive"
    case liveInterval = "LiveInterval"
    case reconnectDelay = "ReconnectDelay"
    case reconnectDelayMax = "ReconnectDelayMax"
    case acceptCommands = "AcceptCommands"
    case allowedCommands = "AllowedCommands"

    /// How 0.1.0 spelt the key (`vehicle_id`, `keepalive`), which it matched without regard
    /// to case. Still read, as a deprecated alias of the key: a box upgraded with its edited
    /// configuration keeps its uplink, and the daemon logs a warning naming the new key. Nil
    /// for a key 0.1.0 did not have.
    public var releaseSpelling: String? {
      switch self {
      case .enabled: "enabled"
      case .host: "host"
      case .port: "port"
      case .vehicleID: "vehicle_id"
      case .clientID: "client_id"
      case .username: "username"
      case .passwordFile: "password_file"
      case .caFile: "ca_file"
      case .certFile: "cert_file"
      case .keyFile: "key_file"
      case .qos: "qos"
      case .topicPrefix: "topic_prefix"
      case .outboxBound: "outbox_bound"
      case .keepAlive: "keepalive"
      case .liveInterval: "live_interval"
      case .reconnectDelay: "reconnect_delay"
      case .reconnectDelayMax: "reconnect_delay_max"
      case .acceptCommands, .allowedCommands: nil
      }
    }

    /// The key `written` spells in 0.1.0's deprecated way (`vehicle_id`, `HOST`); nil for
    /// the key's own spelling and for anything else.
    public static func deprecated(_ written: String) -> Key? {
      let lowered = written.lowercased()
      return allCases.first { $0.releaseSpelling == lowered && $0.rawValue != written }
    }

    /// The key `written` names: its own spelling or a deprecated one.
    public static func named(_ written: String) -> Key? { Key(rawValue: written) ?? deprecated(written) }

    /// The key a near miss ("Vehicleid", "vehicleid") was meant to be: the same letters
    /// without regard to case or underscores.
    static func meant(by written: String) -> Key? {
      let letters = written.lowercased().filter { $0 != "_" }
      return allCases.first { $0.rawValue.lowercased() == letters }
    }
  }

  /// The keys the `[Uplink]` section may hold.
  public static var sectionKeys: Set<String> { Set(Key.allCases.map(\.rawValue)) }

  /// Builds the configuration from the `[Uplink]` section's key/value pairs (as the INI
  /// reader hands them over) and validates it. Returns nil when the uplink is off: the
  /// section is absent or empty, or says `Enabled=no`. A key is matched exactly, or in
  /// 0.1.0's deprecated spelling (`Key.deprecated`), and an error names it as written. An
  /// unknown key is an error, so a typo never silently disables a setting; a near miss of
  /// a key says which it is.
  public static func fromSection(_ section: [String: String]) throws(UplinkConfigurationError) -> UplinkConfiguration? {
    var values: [Key: String] = [:]
    var spelling: [Key: String] = [:]
    for (rawKey, rawValue) in section.sorted(by: { $0.key < $1.key }) {
      let written = rawKey.trimmingSpacesAndTabs
      guard let key = Key.named(written) else {
        let hint = Key.meant(by: written).map { "; the key is \($0.rawValue)" } ?? ""
        throw UplinkConfigurationError(key: rawKey, value: rawValue, reason: "is not an [Uplink] setting\(hint)")
      }
      if let earlier = spelling[key] {
        throw UplinkConfigurationError(
          key: rawKey, value: rawValue, reason: "sets \(key.rawValue) again (as \(earlier))")
      }
      values[key] = rawValue.trimmingSpacesAndTabs
      spelling[key] = written
    }
    do {
      return try configuration(from: values)
    } catch {
      // Named as the file spells it, so that the message points at what is written there.
      var named = error
      if let key = Key(rawValue: error.key), let written = spelling[key] { named.key = written }
      throw named
    }
  }

  private static func configuration(from values: [Key: String]) throws(UplinkConfigurationError)
    -> UplinkConfiguration?
  {
    if values.isEmpty { return nil }
    if try flag(.enabled, in: values) == false { return nil }
    guard let host = values[.host], !host.isEmpty else {
      throw UplinkConfigurationError(key: .host, value: "", reason: "is required to turn the uplink on")
    }
    guard let vehicleID = values[.vehicleID], !vehicleID.isEmpty else {
      throw UplinkConfigurationError(key: .vehicleID, value: "", reason: "is required to turn the uplink on")
    }
    func integer(_ key: Key) throws(UplinkConfigurationError) -> Int? {
      guard let text = values[key] else { return nil }
      guard let value = Int(text) else {
        throw UplinkConfigurationError(key: key, value: text, reason: "must be a whole number")
      }
      return value
    }
    func nonEmpty(_ key: Key) -> String? { values[key].flatMap { $0.isEmpty ? nil : $0 } }
    var configuration = UplinkConfiguration(
      host: host, port: try integer(.port), vehicleID: vehicleID, clientID: nonEmpty(.clientID),
      username: nonEmpty(.username), passwordFile: nonEmpty(.passwordFile), caFile: nonEmpty(.caFile),
      certFile: nonEmpty(.certFile), keyFile: nonEmpty(.keyFile), topicPrefix: nonEmpty(.topicPrefix))
    if let qos = try integer(.qos) { configuration.qos = qos }
    if let bound = try integer(.outboxBound) { configuration.outboxBound = bound }
    if let keepalive = try integer(.keepAlive) { configuration.keepalive = keepalive }
    if let live = try integer(.liveInterval) { configuration.liveInterval = TimeInterval(live) }
    if let delay = try integer(.reconnectDelay) { configuration.reconnectDelay = delay }
    if let delayMax = try integer(.reconnectDelayMax) { configuration.reconnectDelayMax = delayMax }
    configuration.acceptCommands = try flag(.acceptCommands, in: values) ?? false
    if let names = nonEmpty(.allowedCommands) { configuration.allowedCommands = try commands(names) }
    try configuration.validate()
    return configuration
  }

  private static func flag(_ key: Key, in values: [Key: String]) throws(UplinkConfigurationError) -> Bool? {
    guard let text = values[key] else { return nil }
    switch text.lowercased() {
    case "true", "yes", "on", "1": return true
    case "false", "no", "off", "0": return false
    default: throw UplinkConfigurationError(key: key, value: text, reason: "must be true or false")
    }
  }

  /// `AllowedCommands=`: the socket's command names, separated by spaces or commas.
  private static func commands(_ text: String) throws(UplinkConfigurationError) -> Set<ControlCommand.Kind> {
    var commands: Set<ControlCommand.Kind> = []
    for name in text.split(whereSeparator: { " \t,".contains($0) }) {
      guard let command = ControlCommand.Kind(rawValue: String(name)) else {
        let known = ControlCommand.Kind.allCases.filter { $0 != .events }.map(\.rawValue).joined(separator: " ")
        throw UplinkConfigurationError(
          key: .allowedCommands, value: text, reason: "\"\(name)\" is not a command; the commands are \(known)")
      }
      commands.insert(command)
    }
    return commands
  }
}

extension UplinkConfigurationError {
  init(key: UplinkConfiguration.Key, value: String, reason: String) {
    self.init(key: key.rawValue, value: value, reason: reason)
  }
}
