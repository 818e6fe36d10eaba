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
      // A file written for an earlier version, in snake_case, is told the key to write.
      (
        "[Uplink]\nHost=b\nvehicle_id=v\n",
        "test.conf:3: [Uplink] vehicle_id = \"v\": is not an [Uplink] setting; the key is VehicleID"
      ),
    ])
  func errors(text: String, expected: String) {
    #expect(error(text) == expected)
  }

  @Test("a misspelt [Uplink] section is refused, and the list of sections it gives includes Uplink")
  func misspeltSectionListsUplink() {
    #expect(
      error("[Uplnk]\nHost=b\n")
        == "test.conf:2: Host: unknown section [Uplnk]; sections are Capture, Control, GPSD, Guidance, Measurement, Routing, Store, Uplink"
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
}
