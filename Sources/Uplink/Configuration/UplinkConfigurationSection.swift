import FoundationEssentials
import PlatformSupport

extension UplinkConfiguration {
  /// The keys the `[Uplink]` section may hold.
  public static let sectionKeys: Set<String> = [
    "enabled", "host", "port", "vehicle_id", "client_id", "username", "password_file", "ca_file",
    "cert_file", "key_file", "qos", "topic_prefix", "outbox_bound", "keepalive", "live_interval",
    "reconnect_delay", "reconnect_delay_max",
  ]

  /// Builds the configuration from the `[Uplink]` section's key/value pairs (as the INI
  /// reader hands them over) and validates it. Returns nil when the uplink is off: the
  /// section is absent or empty, or says `enabled = false`. Keys are matched without regard
  /// to case; an unknown key is an error, so a typo never silently disables a setting.
  public static func fromSection(_ section: [String: String]) throws(UplinkConfigurationError) -> UplinkConfiguration? {
    var values: [String: String] = [:]
    for (rawKey, rawValue) in section {
      let key = rawKey.trimmingSpacesAndTabs.lowercased()
      guard sectionKeys.contains(key) else {
        throw UplinkConfigurationError(key: rawKey, value: rawValue, reason: "is not an [Uplink] setting")
      }
      values[key] = rawValue.trimmingSpacesAndTabs
    }
    if values.isEmpty { return nil }
    if let enabled = values["enabled"] {
      switch enabled.lowercased() {
      case "true", "yes", "on", "1": break
      case "false", "no", "off", "0": return nil
      default: throw UplinkConfigurationError(key: "enabled", value: enabled, reason: "must be true or false")
      }
    }
    guard let host = values["host"], !host.isEmpty else {
      throw UplinkConfigurationError(key: "host", value: "", reason: "is required to turn the uplink on")
    }
    guard let vehicleID = values["vehicle_id"], !vehicleID.isEmpty else {
      throw UplinkConfigurationError(key: "vehicle_id", value: "", reason: "is required to turn the uplink on")
    }
    func integer(_ key: String) throws(UplinkConfigurationError) -> Int? {
      guard let text = values[key] else { return nil }
      guard let value = Int(text) else {
        throw UplinkConfigurationError(key: key, value: text, reason: "must be a whole number")
      }
      return value
    }
    func nonEmpty(_ key: String) -> String? { values[key].flatMap { $0.isEmpty ? nil : $0 } }
    var configuration = UplinkConfiguration(
      host: host, port: try integer("port"), vehicleID: vehicleID, clientID: nonEmpty("client_id"),
      username: nonEmpty("username"), passwordFile: nonEmpty("password_file"), caFile: nonEmpty("ca_file"),
      certFile: nonEmpty("cert_file"), keyFile: nonEmpty("key_file"), topicPrefix: nonEmpty("topic_prefix"))
    if let qos = try integer("qos") { configuration.qos = qos }
    if let bound = try integer("outbox_bound") { configuration.outboxBound = bound }
    if let keepalive = try integer("keepalive") { configuration.keepalive = keepalive }
    if let live = try integer("live_interval") { configuration.liveInterval = TimeInterval(live) }
    if let delay = try integer("reconnect_delay") { configuration.reconnectDelay = delay }
    if let delayMax = try integer("reconnect_delay_max") { configuration.reconnectDelayMax = delayMax }
    try configuration.validate()
    return configuration
  }
}
