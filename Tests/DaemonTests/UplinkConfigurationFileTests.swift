import ConfigurationFile
import Daemon
import Foundation
import TestSupport
import Testing
import Uplink

/// The `[Uplink]` section as the daemon reads it: libinih's entries handed to
/// `UplinkConfiguration.fromSection`, errors pointing at the line at fault.
@Suite("the [Uplink] section of dashpilot.conf")
struct UplinkConfigurationFileTests {
  func load(_ text: String) -> Result<DaemonConfiguration, ConfigurationError> { ConfigurationText.load(text) }
  func error(_ text: String) -> String? { ConfigurationText.error(text) }

  @Test("a section with Host and VehicleID turns the uplink on, with every default from UplinkConfiguration")
  func configured() throws {
    let configuration = try load("[Store]\nDatabase=/d.sqlite\n[Uplink]\nHost=broker.fleet\nVehicleID=van-7\nQoS=0\n")
      .get()
    var expected = UplinkConfiguration(host: "broker.fleet", vehicleID: "van-7")
    expected.qos = 0
    #expect(configuration.uplink == expected)
    #expect(configuration.uplink?.port == 1883)
    #expect(configuration.uplink?.topicPrefix == "dashpilot/van-7")
    #expect(configuration.databasePath == "/d.sqlite")
  }

  @Test("no section, an empty one or Enabled=false leave it off")
  func off() throws {
    #expect(try load("[Store]\nDatabase=/d.sqlite\n").get().uplink == nil)
    #expect(try load("[Uplink]\n").get().uplink == nil)
    #expect(try load("[Uplink]\nEnabled=false\nHost=b\nVehicleID=v\n").get().uplink == nil)
  }

  @Test(
    "a wrong [Uplink] entry names the file, the line and what is wrong",
    arguments: [
      ("[Uplink]\nHost=b\nVehicleID=v\nQoS=3\n", "test.conf:4: [Uplink] QoS = \"3\": must be 0, 1 or 2"),
      ("[Uplink]\nHost=b\nVehicleID=v\nhots=c\n", "test.conf:4: [Uplink] hots = \"c\": is not an [Uplink] setting"),
      ("[Uplink]\nPort=1884\nVehicleID=v\n", "test.conf:2: [Uplink] Host = \"\": is required to turn the uplink on"),
      (
        "[Uplink]\nHost=b\nVehicleID=a/b\n",
        "test.conf:3: [Uplink] VehicleID = \"a/b\": must not contain '/', '+' or '#' (it is one MQTT topic level)"
      ),
      ("[Uplink]\nHost=b\nHost=c\n", "test.conf:3: Host: set twice (first on line 2)"),
      // A near miss of a key is told the key to write.
      (
        "[Uplink]\nHost=b\nVehicleId=v\n",
        "test.conf:3: [Uplink] VehicleId = \"v\": is not an [Uplink] setting; the key is VehicleID"
      ),
      // 0.1.0's spelling is the same key: setting both is setting it twice, and a bad value
      // is named as the file spells it.
      ("[Uplink]\nHost=b\nhost=c\n", "test.conf:3: host: set twice (first on line 2)"),
      ("[Uplink]\nhost=b\nvehicle_id=v\nqos=3\n", "test.conf:4: [Uplink] qos = \"3\": must be 0, 1 or 2"),
    ])
  func errors(text: String, expected: String) {
    #expect(error(text) == expected)
  }

  @Test("a misspelt [Uplink] section is refused, and the list of sections it gives includes Uplink")
  func misspeltSectionListsUplink() {
    #expect(
      error("[Uplnk]\nHost=b\n")
        == "test.conf:2: Host: unknown section [Uplnk]; sections are Capture, Control, GPSD, Guidance, Jobs, Measurement, Places, Routing, Shift, Stops, Store, Uplink"
    )
    #expect(ConfigurationValidator.knownSections.contains(ConfigurationValidator.uplinkSection))
  }

  @Test("the shipped file documents every [Uplink] key, commented out, with its default")
  func shippedFileDocumentsUplinkKeys() throws {
    let shipped = try String(
      contentsOf: TestPaths.repositoryRoot.appendingPathComponent("config/dashpilot.conf"), encoding: .utf8)
    let lines = shipped.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let start = try #require(lines.firstIndex(of: "[Uplink]"))
    let section = lines[(start + 1)...].prefix { !$0.hasPrefix("[") }
    let documented = section.filter { $0.hasPrefix("#") && !$0.hasPrefix("# ") && $0.contains("=") }
      .map { String($0.dropFirst()) }
    let keys = Set(documented.map { String($0.prefix { $0 != "=" }) })
    #expect(keys == UplinkConfiguration.sectionKeys)
    // Uncommented with a host and vehicle id, the documented values are the defaults.
    let values = Dictionary(
      documented.map { line in (String(line.prefix { $0 != "=" }), String(line.drop { $0 != "=" }.dropFirst())) },
      uniquingKeysWith: { first, _ in first })
    var filled = values.filter { !$0.value.isEmpty }
    filled["Host"] = "b"
    filled["VehicleID"] = "v"
    let text = "[Uplink]\n" + filled.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "\n")
    #expect(try load(text).get().uplink == UplinkConfiguration(host: "b", vehicleID: "v"))
  }

  /// Every [Uplink] key as 0.1.0 wrote it (`QOS`: 0.1.0 matched without regard to case),
  /// as it is written today, and a value.
  static let spellings: [(old: String, new: String, value: String)] = [
    ("enabled", "Enabled", "true"), ("host", "Host", "broker.fleet"), ("port", "Port", "8884"),
    ("vehicle_id", "VehicleID", "van-7"), ("client_id", "ClientID", "van-7-box"), ("username", "Username", "van"),
    ("password_file", "PasswordFile", "/etc/dashpilot/uplink.password"),
    ("ca_file", "CAFile", "/etc/dashpilot/ca.pem"), ("cert_file", "CertFile", "/etc/dashpilot/box.pem"),
    ("key_file", "KeyFile", "/etc/dashpilot/box.key"), ("QOS", "QoS", "0"),
    ("topic_prefix", "TopicPrefix", "fleet/vans"), ("outbox_bound", "OutboxBound", "5000"),
    ("keepalive", "KeepAlive", "20"), ("live_interval", "LiveInterval", "15"),
    ("reconnect_delay", "ReconnectDelay", "2"), ("reconnect_delay_max", "ReconnectDelayMax", "30"),
  ]

  /// The section with each key spelt by `spelling`, after a [Store] section (lines 1-2).
  static func section(_ spelling: ((old: String, new: String, value: String)) -> String) -> String {
    "[Store]\nDatabase=/d.sqlite\n[Uplink]\n" + spellings.map { "\(spelling($0))=\($0.value)\n" }.joined()
  }

  @Test("0.1.0's snake_case keys are deprecated aliases: the same configuration, and one warning line for the file")
  func releaseSpellingsStillWork() throws {
    let directory = try TestPaths.temporaryDirectory("uplink-aliases")
    defer { try? FileManager.default.removeItem(at: directory) }
    func loaded(_ text: String) throws -> ConfigurationLoader.Loaded {
      let path = directory.appendingPathComponent("dashpilot.conf").path
      try text.write(toFile: path, atomically: true, encoding: .utf8)
      let options = try DaemonOptions.parse(["--config", path], workingDirectory: "/").get()
      return try ConfigurationLoader.load(options: options).get()
    }
    let old = try loaded(Self.section(\.old))
    let new = try loaded(Self.section(\.new))
    #expect(old.configuration == new.configuration)
    #expect(old.configuration.uplink?.vehicleID == "van-7")
    #expect(old.configuration.uplink?.keepalive == 20)
    #expect(new.warnings == [])
    let path = directory.appendingPathComponent("dashpilot.conf").path
    #expect(
      old.warnings == [
        "\(path): [Uplink] keys in 0.1.0's deprecated spelling, read as their new names: enabled (line 4) is now Enabled, "
          + "host (line 5) is now Host, port (line 6) is now Port, vehicle_id (line 7) is now VehicleID, "
          + "client_id (line 8) is now ClientID, username (line 9) is now Username, "
          + "password_file (line 10) is now PasswordFile, ca_file (line 11) is now CAFile, "
          + "cert_file (line 12) is now CertFile, key_file (line 13) is now KeyFile, QOS (line 14) is now QoS, "
          + "topic_prefix (line 15) is now TopicPrefix, outbox_bound (line 16) is now OutboxBound, "
          + "keepalive (line 17) is now KeepAlive, live_interval (line 18) is now LiveInterval, "
          + "reconnect_delay (line 19) is now ReconnectDelay, reconnect_delay_max (line 20) is now ReconnectDelayMax; "
          + "write the new names, as dashpilot.conf(5) lists them"
      ])
    // Every key 0.1.0 had keeps its spelling, each is read as that key, and the table above
    // is every such key; the keys that came after it (the fleet's commands) have none.
    #expect(
      Set(UplinkConfiguration.Key.allCases.compactMap(\.releaseSpelling))
        == Set(Self.spellings.map { $0.old.lowercased() }))
    #expect(Self.spellings.allSatisfy { UplinkConfiguration.Key.deprecated($0.old)?.rawValue == $0.new })
    #expect(
      UplinkConfiguration.sectionKeys.subtracting(Self.spellings.map(\.new)) == ["AcceptCommands", "AllowedCommands"])
    #expect(UplinkConfiguration.Key.deprecated("accept_commands") == nil)
  }

  @Test("a daemon whose configuration 0.1.0 wrote starts, with its uplink on, and logs the one warning line")
  func daemonStartsWithReleaseSpellings() throws {
    let daemon = try DaemonUnderTest(config: "[Uplink]\nhost=127.0.0.1\nport=1\nvehicle_id=fixture-car\n")
    defer { daemon.stop() }
    try daemon.waitUntilReady()
    let path = try #require(daemon.configPath)
    let warning =
      "dashpilotd: warning: \(path): [Uplink] keys in 0.1.0's deprecated spelling, read as their new names: "
      + "host (line 2) is now Host, port (line 3) is now Port, vehicle_id (line 4) is now VehicleID; "
      + "write the new names, as dashpilot.conf(5) lists them [reason=configuration]\n"
    #expect(daemon.log.components(separatedBy: warning).count == 2, "\(daemon.log)")
    let status = try daemon.controlJSON(["status"])
    #expect(status.object("uplink")?["broker"] as? String == "127.0.0.1:1", "\(status)")
  }
}
