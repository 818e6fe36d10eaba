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

    /// The key a near miss ("vehicle_id", "Vehicleid") was meant to be: the same letters
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
  /// section is absent or empty, or says `Enabled=no`. An unknown key is an error, so a
  /// typo never silently disables a setting; one that is a known key in another spelling
  /// (the snake_case of earlier versions) says which.
  public static func fromSection(_ section: [String: String]) throws(UplinkConfigurationError) -> UplinkConfiguration? {
    var values: [Key: String] = [:]
    for (rawKey, rawValue) in section {
      let written = rawKey.trimmingSpacesAndTabs
      guard let key = Key(rawValue: written) else {
        let hint = Key.meant(by: written).map { "; the key is \($0.rawValue)" } ?? ""
        throw UplinkConfigurationError(key: rawKey, value: rawValue, reason: "is not an [Uplink] setting\(hint)")
      }
      values[key] = rawValue.trimmingSpacesAndTabs
    }
    if values.isEmpty { return nil }
    if let enabled = values[.enabled] {
      switch enabled.lowercased() {
      case "true", "yes", "on", "1": break
      case "false", "no", "off", "0": return nil
      default: throw UplinkConfigurationError(key: .enabled, value: enabled, reason: "must be true or false")
      }
    }
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
    try configuration.validate()
    return configuration
  }
}

extension UplinkConfigurationError {
  init(key: UplinkConfiguration.Key, value: String, reason: String) {
    self.init(key: key.rawValue, value: value, reason: reason)
  }
}
