import OfficeCore
import Testing

/// The office's MQTT 5 packets, byte for byte against the standard's layouts, and the
/// framer cutting a stream however it arrives, a packet over the bound held only in part.
struct MQTTPacketTests {
  @Test func connectCarriesTheSessionAndFlowControlProperties() {
    var properties = MQTTProperties()
    properties.sessionExpiryInterval = 604_800
    properties.receiveMaximum = 1000
    properties.topicAliasMaximum = 0
    let bytes = MQTTEncode.connect(
      clientID: "o-1", cleanStart: false, keepAlive: 30, properties: properties,
      credentials: MQTTEncode.Credentials(username: "office", password: "pw"))
    #expect(
      bytes == [
        0x10, 39,  // CONNECT, remaining length
        0, 4, 0x4D, 0x51, 0x54, 0x54, 5,  // "MQTT", version 5
        0xC0, 0, 30,  // user name and password, clean start off; keep alive 30 s
        11, 0x11, 0, 0x09, 0x3A, 0x80, 0x21, 0x03, 0xE8, 0x22, 0, 0,  // properties
        0, 3, 0x6F, 0x2D, 0x31,  // client id
        0, 6, 0x6F, 0x66, 0x66, 0x69, 0x63, 0x65,  // user name
        0, 2, 0x70, 0x77,  // password
      ])
  }

  @Test func subscribeAndAcknowledgements() {
    #expect(
      MQTTEncode.subscribe(packetID: 1, filters: ["$share/g/a/+"], qos: 1)
        == [0x82, 18, 0, 1, 0, 0, 12] + Array("$share/g/a/+".utf8) + [1])
    #expect(MQTTEncode.puback(packetID: 0x1234) == [0x40, 2, 0x12, 0x34])
    #expect(MQTTEncode.pingreq == [0xC0, 0])
    #expect(MQTTEncode.disconnect == [0xE0, 0])
  }

  @Test func readsAPublishWithPropertiesAndTheFlags() throws {
    let bytes = MQTTEncode.publish(topic: "dashpilot/van-7/samples", payload: Array("{}".utf8), qos: 1, packetID: 9)
    var framer = MQTTFramer(maximumHeld: 1000)
    let frames = try bytes.withUnsafeBytes { try framer.append($0) }
    #expect(frames.count == 1)
    let packet = try MQTTPacket.read(first: frames[0].first | 0x08, body: frames[0].body[...])
    #expect(
      packet
        == .publish(
          MQTTPublish(topic: "dashpilot/van-7/samples", qos: 1, isDuplicate: true, packetID: 9, payload: [0x7B, 0x7D])))
  }

  @Test func readsConnackSubackDisconnect() throws {
    #expect(
      try MQTTPacket.read(first: 0x20, body: [1, 0, 3, 0x21, 0, 20][...])
        == .connack(
          sessionPresent: true, reasonCode: 0,
          properties: {
            var p = MQTTProperties()
            p.receiveMaximum = 20
            return p
          }()))
    #expect(
      try MQTTPacket.read(first: 0x90, body: [0, 1, 0, 1, 0x9E][...]) == .suback(packetID: 1, reasonCodes: [1, 0x9E]))
    #expect(try MQTTPacket.read(first: 0xE0, body: [0x8E, 0][...]) == .disconnect(reasonCode: 0x8E, reason: nil))
    #expect(throws: MQTTProtocolError.self) { try MQTTPacket.read(first: 0x36, body: [0, 1, 0x61][...]) }
  }

  @Test func cutsAStreamByteByByteAndHoldsOnlyTheStartOfALargePacket() throws {
    let small = MQTTEncode.publish(topic: "t", payload: [1, 2, 3], qos: 0, packetID: nil)
    let large = MQTTEncode.publish(topic: "t", payload: [UInt8](repeating: 7, count: 300), qos: 1, packetID: 5)
    var framer = MQTTFramer(maximumHeld: 100, keptOfLarge: 20)
    var frames: [MQTTFramer.Frame] = []
    for byte in small + large + small + MQTTEncode.pingreq {
      frames += try [byte].withUnsafeBytes { try framer.append($0) }
    }
    #expect(frames.map(\.length) == [7, 306, 7, 0])
    #expect(frames[1].body.count == 20)
    let packet = try MQTTPacket.read(first: frames[1].first, body: frames[1].body[...], bodyLength: frames[1].length)
    guard case .publish(let publish) = packet else {
      Issue.record("not a publish: \(packet)")
      return
    }
    #expect(publish.packetID == 5 && publish.payloadSize == 300 && publish.payload.count == 14 && !publish.isWhole)
  }
}
