import Testing

@testable import Uplink

@Suite struct UplinkConfigurationTests {
  @Test func anAbsentOrEmptyOrDisabledSectionLeavesTheUplinkOff() throws {
    #expect(try UplinkConfiguration.fromSection([:]) == nil)
    #expect(try UplinkConfiguration.fromSection(["Enabled": "false", "Host": "broker", "VehicleID": "van-7"]) == nil)
  }

  @Test func releaseSpellingsAreDeprecatedAliases() throws {
    let old = try UplinkConfiguration.fromSection([
      "host": "broker", "vehicle_id": "car1", "ca_file": "/etc/ca.pem", "QOS": "2", "keepalive": "60",
      "Reconnect_Delay": "2",
    ])
    let new = try UplinkConfiguration.fromSection([
      "Host": "broker", "VehicleID": "car1", "CAFile": "/etc/ca.pem", "QoS": "2", "KeepAlive": "60",
      "ReconnectDelay": "2",
    ])
    #expect(old == new)
    #expect(old?.keepalive == 60)
    #expect(UplinkConfiguration.Key.deprecated("vehicle_id") == .vehicleID)
    #expect(UplinkConfiguration.Key.deprecated("KEEPALIVE") == .keepAlive)
    #expect(UplinkConfiguration.Key.deprecated("VehicleID") == nil)
    #expect(UplinkConfiguration.Key.deprecated("vehicleid") == nil)
    #expect(UplinkConfiguration.Key.deprecated("keep_alive") == nil)
  }

  @Test func defaultsFollowTheVehicle() throws {
    let configuration = try #require(
      try UplinkConfiguration.fromSection(["Host": "broker.example", "VehicleID": "van-7"]))
    #expect(configuration.port == 1883)
    #expect(configuration.clientID == "dashpilot-van-7")
    #expect(configuration.topicPrefix == "dashpilot/van-7")
    #expect(configuration.qos == 1)
    #expect(configuration.outboxBound == 100_000)
    #expect(configuration.usesTLS == false)
    #expect(configuration.topic(.samples) == "dashpilot/van-7/samples")
  }

  @Test func tlsDefaultsToPort8883AndEveryKeyIsRead() throws {
    let configuration = try #require(
      try UplinkConfiguration.fromSection([
        "Host": "broker", "VehicleID": "car1", "CAFile": "/etc/ca.pem", "CertFile": "/etc/c.pem",
        "KeyFile": "/etc/k.pem", "Username": "fleet", "PasswordFile": "/etc/pw", "QoS": "2",
        "TopicPrefix": "acme/fleet/car1", "OutboxBound": "500", "KeepAlive": "60", "LiveInterval": "10",
        "ClientID": "box-17", "ReconnectDelay": "2", "ReconnectDelayMax": "4",
      ]))
    #expect(
      configuration
        == UplinkConfiguration(
          host: "broker", port: 8883, vehicleID: "car1", clientID: "box-17", username: "fleet", passwordFile: "/etc/pw",
          caFile: "/etc/ca.pem", certFile: "/etc/c.pem", keyFile: "/etc/k.pem", qos: 2, topicPrefix: "acme/fleet/car1",
          outboxBound: 500, keepalive: 60, liveInterval: 10, reconnectDelay: 2, reconnectDelayMax: 4))
  }

  @Test(arguments: [
    (
      ["Host": "b", "VehicleID": "van/7"],
      "[Uplink] VehicleID = \"van/7\": must not contain '/', '+' or '#' (it is one MQTT topic level)"
    ),
    (["Host": "b", "VehicleID": "v", "Port": "70000"], "[Uplink] Port = \"70000\": must be between 1 and 65535"),
    (["Host": "b", "VehicleID": "v", "Port": "eighty"], "[Uplink] Port = \"eighty\": must be a whole number"),
    (["Host": "b", "VehicleID": "v", "QoS": "3"], "[Uplink] QoS = \"3\": must be 0, 1 or 2"),
    (["VehicleID": "v"], "[Uplink] Host = \"\": is required to turn the uplink on"),
    (["Host": "b"], "[Uplink] VehicleID = \"\": is required to turn the uplink on"),
    (
      ["Host": "b", "VehicleID": "v", "PasswordFile": "/pw"],
      "[Uplink] PasswordFile = \"/pw\": needs a Username beside it"
    ),
    (
      ["Host": "b", "VehicleID": "v", "CAFile": "/ca", "CertFile": "/c"],
      "[Uplink] KeyFile = \"\": is missing: a client certificate needs both CertFile and KeyFile"
    ),
    (
      ["Host": "b", "VehicleID": "v", "CertFile": "/c", "KeyFile": "/k"],
      "[Uplink] CertFile = \"/c\": a client certificate needs TLS: set CAFile too"
    ),
    (
      ["Host": "b", "VehicleID": "v", "TopicPrefix": "fleet/#"],
      "[Uplink] TopicPrefix = \"fleet/#\": must not contain the wildcards '+' or '#'"
    ),
    (
      ["Host": "b", "VehicleID": "v", "TopicPrefix": "/fleet"],
      "[Uplink] TopicPrefix = \"/fleet\": must not begin or end with '/'"
    ),
    (["Host": "b", "VehicleID": "v", "OutboxBound": "0"], "[Uplink] OutboxBound = \"0\": must be at least 1"),
    (["Host": "b", "VehicleID": "v", "Enabled": "maybe"], "[Uplink] Enabled = \"maybe\": must be true or false"),
    (["Host": "b", "VehicleID": "v", "brokr": "x"], "[Uplink] brokr = \"x\": is not an [Uplink] setting"),
    (["Host": "b", "VehicleID": "v", "port": "x"], "[Uplink] port = \"x\": must be a whole number"),
    (["Host": "b", "host": "c", "VehicleID": "v"], "[Uplink] host = \"c\": sets Host again (as Host)"),
    (["Host": "b", "VehicleId": "v"], "[Uplink] VehicleId = \"v\": is not an [Uplink] setting; the key is VehicleID"),
    (
      ["Host": "b", "VehicleID": "v", "ReconnectDelay": "5", "ReconnectDelayMax": "2"],
      "[Uplink] ReconnectDelayMax = \"2\": must be at least ReconnectDelay"
    ),
  ])
  func badSettingsAreNamed(section: [String: String], message: String) {
    #expect {
      _ = try UplinkConfiguration.fromSection(section)
    } throws: { error in
      (error as? UplinkConfigurationError)?.description == message
    }
  }
}
