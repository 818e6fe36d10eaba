/// The MQTT 5 packets the office sends and reads (OASIS MQTT 5.0, section 3), as values and
/// bytes. The office subscribes and acknowledges; the test and bench publishers publish, so
/// both directions of PUBLISH and PUBACK are here.
public enum MQTTPacketType: UInt8, Sendable {
  case connect = 1
  case connack, publish, puback, pubrec, pubrel, pubcomp, subscribe, suback
  case unsubscribe, unsuback, pingreq, pingresp, disconnect, auth
}

/// A PUBLISH as read: the topic, the packet id (QoS 1 and 2), and the payload. A payload
/// over the reader's bound is not held: `payload` is then its first bytes and
/// `payloadSize` the whole size.
public struct MQTTPublish: Sendable, Hashable {
  public var topic: String
  public var qos: UInt8
  public var isDuplicate: Bool
  public var isRetained: Bool
  public var packetID: UInt16?
  public var payload: [UInt8]
  public var payloadSize: Int

  public init(
    topic: String, qos: UInt8, isDuplicate: Bool = false, isRetained: Bool = false, packetID: UInt16?,
    payload: [UInt8], payloadSize: Int? = nil
  ) {
    self.topic = topic
    self.qos = qos
    self.isDuplicate = isDuplicate
    self.isRetained = isRetained
    self.packetID = packetID
    self.payload = payload
    self.payloadSize = payloadSize ?? payload.count
  }

  /// Whether `payload` is the whole payload.
  public var isWhole: Bool { payload.count == payloadSize }
}

public enum MQTTPacket: Sendable, Hashable {
  case connack(sessionPresent: Bool, reasonCode: UInt8, properties: MQTTProperties)
  case publish(MQTTPublish)
  case puback(packetID: UInt16, reasonCode: UInt8)
  case suback(packetID: UInt16, reasonCodes: [UInt8])
  case pingresp
  case disconnect(reasonCode: UInt8, reason: String?)
  /// Any other packet: the office has no use for it.
  case other(type: UInt8)

  /// Reads one packet's body; `first` is its first byte. `bodyLength` is the body's real
  /// length when `body` holds only its beginning (`MQTTFramer`'s large packets).
  public static func read(
    first: UInt8, body: ArraySlice<UInt8>, bodyLength: Int? = nil
  ) throws(MQTTProtocolError) -> MQTTPacket {
    var reader = MQTTReader(body)
    switch MQTTPacketType(rawValue: first >> 4) {
    case .connack:
      let flags = try reader.byte()
      let code = try reader.byte()
      let properties = reader.isAtEnd ? MQTTProperties() : try MQTTProperties.read(from: &reader)
      return .connack(sessionPresent: flags & 1 == 1, reasonCode: code, properties: properties)
    case .publish:
      let qos = (first >> 1) & 3
      guard qos < 3 else { throw MQTTProtocolError("a PUBLISH with QoS 3") }
      let topic = try reader.string()
      let packetID = qos > 0 ? try reader.uint16() : nil
      _ = try MQTTProperties.read(from: &reader)
      let payload = Array(reader.rest())
      let size = bodyLength.map { $0 - (body.count - payload.count) } ?? payload.count
      return .publish(
        MQTTPublish(
          topic: topic, qos: qos, isDuplicate: first & 0x08 != 0, isRetained: first & 1 == 1, packetID: packetID,
          payload: payload, payloadSize: size))
    case .puback:
      let id = try reader.uint16()
      return .puback(packetID: id, reasonCode: reader.isAtEnd ? 0 : try reader.byte())
    case .suback:
      let id = try reader.uint16()
      _ = try MQTTProperties.read(from: &reader)
      return .suback(packetID: id, reasonCodes: Array(reader.rest()))
    case .pingresp:
      return .pingresp
    case .disconnect:
      guard !reader.isAtEnd else { return .disconnect(reasonCode: 0, reason: nil) }
      let code = try reader.byte()
      let properties = reader.isAtEnd ? MQTTProperties() : try MQTTProperties.read(from: &reader)
      return .disconnect(reasonCode: code, reason: properties.reasonString)
    default:
      return .other(type: first >> 4)
    }
  }
}

/// The packets the office writes.
public enum MQTTEncode {
  public struct Credentials: Sendable, Hashable {
    public var username: String
    public var password: String?
    public init(username: String, password: String?) {
      self.username = username
      self.password = password
    }
  }

  public static func connect(
    clientID: String, cleanStart: Bool, keepAlive: UInt16, properties: MQTTProperties,
    credentials: Credentials? = nil
  ) -> [UInt8] {
    var body = MQTTWriter()
    body.string("MQTT")
    body.byte(5)
    var flags: UInt8 = cleanStart ? 0x02 : 0
    if let credentials {
      flags |= 0x80
      if credentials.password != nil { flags |= 0x40 }
    }
    body.byte(flags)
    body.uint16(keepAlive)
    body.append(properties.encoded())
    body.string(clientID)
    if let credentials {
      body.string(credentials.username)
      if let password = credentials.password { body.binary(Array(password.utf8)) }
    }
    return MQTTWriter.packet(0x10, body: body.bytes)
  }

  /// SUBSCRIBE with the same options for every filter: QoS `qos`, retained messages as
  /// the broker sends them (a shared subscription gets none when it is made).
  public static func subscribe(packetID: UInt16, filters: [String], qos: UInt8) -> [UInt8] {
    var body = MQTTWriter()
    body.uint16(packetID)
    body.append(MQTTProperties().encoded())
    for filter in filters {
      body.string(filter)
      body.byte(qos & 3)
    }
    return MQTTWriter.packet(0x82, body: body.bytes)
  }

  public static func publish(
    topic: String, payload: [UInt8], qos: UInt8, packetID: UInt16?, retain: Bool = false, duplicate: Bool = false
  ) -> [UInt8] {
    var body = MQTTWriter()
    body.string(topic)
    if qos > 0, let packetID { body.uint16(packetID) }
    body.append(MQTTProperties().encoded())
    body.append(payload)
    let first: UInt8 = 0x30 | (duplicate ? 0x08 : 0) | ((qos & 3) << 1) | (retain ? 1 : 0)
    return MQTTWriter.packet(first, body: body.bytes)
  }

  /// PUBACK with reason 0 (success), in its short form: the packet id alone.
  public static func puback(packetID: UInt16) -> [UInt8] {
    [0x40, 0x02, UInt8(packetID >> 8), UInt8(packetID & 0xFF)]
  }

  public static let pingreq: [UInt8] = [0xC0, 0x00]

  /// A normal disconnection: the session stays (its expiry is what CONNECT said).
  public static let disconnect: [UInt8] = [0xE0, 0x00]
}
