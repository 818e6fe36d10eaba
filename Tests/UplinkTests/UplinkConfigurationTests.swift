import Testing

@testable import Uplink

@Suite struct UplinkConfigurationTests {
  @Test func anAbsentOrEmptyOrDisabledSectionLeavesTheUplinkOff() throws {
    #expect(try UplinkConfiguration.fromSection([:]) == nil)
    #expect(try UplinkConfiguration.fromSection(["enabled": "false", "host": "broker", "vehicle_id": "van-7"]) == nil)
  }

  @Test func defaultsFollowTheVehicle() throws {
    let configuration = try #require(
      try UplinkConfiguration.fromSection(["host": "broker.example", "vehicle_id": "van-7"]))
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
        "Host": "broker", "Vehicle_ID": "car1", "ca_file": "/etc/ca.pem", "cert_file": "/etc/c.pem",
        "key_file": "/etc/k.pem", "username": "fleet", "password_file": "/etc/pw", "qos": "2",
        "topic_prefix": "acme/fleet/car1", "outbox_bound": "500", "keepalive": "60", "live_interval": "10",
        "client_id": "box-17", "reconnect_delay": "2", "reconnect_delay_max": "4",
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
      ["host": "b", "vehicle_id": "van/7"],
      "[Uplink] vehicle_id = \"van/7\": must not contain '/', '+' or '#' (it is one MQTT topic level)"
    ),
    (["host": "b", "vehicle_id": "v", "port": "70000"], "[Uplink] port = \"70000\": must be between 1 and 65535"),
    (["host": "b", "vehicle_id": "v", "port": "eighty"], "[Uplink] port = \"eighty\": must be a whole number"),
    (["host": "b", "vehicle_id": "v", "qos": "3"], "[Uplink] qos = \"3\": must be 0, 1 or 2"),
    (["vehicle_id": "v"], "[Uplink] host = \"\": is required to turn the uplink on"),
    (["host": "b"], "[Uplink] vehicle_id = \"\": is required to turn the uplink on"),
    (
      ["host": "b", "vehicle_id": "v", "password_file": "/pw"],
      "[Uplink] password_file = \"/pw\": needs a username beside it"
    ),
    (
      ["host": "b", "vehicle_id": "v", "ca_file": "/ca", "cert_file": "/c"],
      "[Uplink] key_file = \"\": is missing: a client certificate needs both cert_file and key_file"
    ),
    (
      ["host": "b", "vehicle_id": "v", "cert_file": "/c", "key_file": "/k"],
      "[Uplink] cert_file = \"/c\": a client certificate needs TLS: set ca_file too"
    ),
    (
      ["host": "b", "vehicle_id": "v", "topic_prefix": "fleet/#"],
      "[Uplink] topic_prefix = \"fleet/#\": must not contain the wildcards '+' or '#'"
    ),
    (
      ["host": "b", "vehicle_id": "v", "topic_prefix": "/fleet"],
      "[Uplink] topic_prefix = \"/fleet\": must not begin or end with '/'"
    ),
    (["host": "b", "vehicle_id": "v", "outbox_bound": "0"], "[Uplink] outbox_bound = \"0\": must be at least 1"),
    (["host": "b", "vehicle_id": "v", "enabled": "maybe"], "[Uplink] enabled = \"maybe\": must be true or false"),
    (["host": "b", "vehicle_id": "v", "brokr": "x"], "[Uplink] brokr = \"x\": is not an [Uplink] setting"),
    (
      ["host": "b", "vehicle_id": "v", "reconnect_delay": "5", "reconnect_delay_max": "2"],
      "[Uplink] reconnect_delay_max = \"2\": must be at least reconnect_delay"
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
