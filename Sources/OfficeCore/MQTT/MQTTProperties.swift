/// The MQTT 5 properties this client writes or reads (section 2.2.2.2). Every other one the
/// broker may send is skipped by its type, so a broker that adds properties is still read.
public struct MQTTProperties: Sendable, Hashable {
  public var sessionExpiryInterval: UInt32?
  public var receiveMaximum: UInt16?
  public var maximumPacketSize: UInt32?
  public var topicAliasMaximum: UInt16?
  public var topicAlias: UInt16?
  public var serverKeepAlive: UInt16?
  public var assignedClientIdentifier: String?
  public var reasonString: String?
  public var maximumQoS: UInt8?
  public var sharedSubscriptionAvailable: UInt8?

  public init() {}

  enum Identifier: UInt8 {
    case sessionExpiryInterval = 0x11
    case receiveMaximum = 0x21
    case maximumPacketSize = 0x27
    case topicAliasMaximum = 0x22
    case topicAlias = 0x23
    case serverKeepAlive = 0x13
    case assignedClientIdentifier = 0x12
    case reasonString = 0x1F
    case maximumQoS = 0x24
    case sharedSubscriptionAvailable = 0x2A
  }

  /// The property length and the properties, as a packet carries them.
  public func encoded() -> [UInt8] {
    var body = MQTTWriter()
    if let sessionExpiryInterval {
      body.byte(Identifier.sessionExpiryInterval.rawValue)
      body.uint32(sessionExpiryInterval)
    }
    if let receiveMaximum {
      body.byte(Identifier.receiveMaximum.rawValue)
      body.uint16(receiveMaximum)
    }
    if let maximumPacketSize {
      body.byte(Identifier.maximumPacketSize.rawValue)
      body.uint32(maximumPacketSize)
    }
    if let topicAliasMaximum {
      body.byte(Identifier.topicAliasMaximum.rawValue)
      body.uint16(topicAliasMaximum)
    }
    var writer = MQTTWriter()
    writer.variableInteger(body.bytes.count)
    writer.append(body.bytes)
    return writer.bytes
  }

  /// Reads the property length and the properties that follow it.
  public static func read(from reader: inout MQTTReader) throws(MQTTProtocolError) -> MQTTProperties {
    let length = try reader.variableInteger()
    var inner = MQTTReader(try reader.take(length))
    var properties = MQTTProperties()
    while !inner.isAtEnd {
      let identifier = try inner.variableInteger()
      switch identifier {
      case 0x11: properties.sessionExpiryInterval = try inner.uint32()
      case 0x21: properties.receiveMaximum = try inner.uint16()
      case 0x27: properties.maximumPacketSize = try inner.uint32()
      case 0x22: properties.topicAliasMaximum = try inner.uint16()
      case 0x23: properties.topicAlias = try inner.uint16()
      case 0x13: properties.serverKeepAlive = try inner.uint16()
      case 0x12: properties.assignedClientIdentifier = try inner.string()
      case 0x1F: properties.reasonString = try inner.string()
      case 0x24: properties.maximumQoS = try inner.byte()
      case 0x2A: properties.sharedSubscriptionAvailable = try inner.byte()
      // Skipped by type: bytes, two- and four-byte integers, a variable integer, strings
      // and binary data, string pairs.
      case 0x01, 0x17, 0x19, 0x25, 0x28, 0x29: _ = try inner.byte()
      case 0x02, 0x18: _ = try inner.uint32()
      case 0x0B: _ = try inner.variableInteger()
      case 0x03, 0x08, 0x09, 0x15, 0x16, 0x1A, 0x1C: _ = try inner.binary()
      case 0x26:
        _ = try inner.binary()
        _ = try inner.binary()
      default: throw MQTTProtocolError("unknown property 0x\(String(identifier, radix: 16))")
      }
    }
    return properties
  }
}
