/// The byte forms MQTT 5 builds its packets from (OASIS MQTT 5.0, section 1.5): big-endian
/// integers, variable byte integers, length-prefixed strings and binary data. Writing
/// appends to a byte array; reading walks a slice and throws on a short or bad field.
public struct MQTTWriter: Sendable {
  public private(set) var bytes: [UInt8] = []

  public init() {}

  public mutating func byte(_ value: UInt8) { bytes.append(value) }

  public mutating func uint16(_ value: UInt16) {
    bytes.append(UInt8(value >> 8))
    bytes.append(UInt8(value & 0xFF))
  }

  public mutating func uint32(_ value: UInt32) {
    for shift in stride(from: 24, through: 0, by: -8) { bytes.append(UInt8((value >> UInt32(shift)) & 0xFF)) }
  }

  public mutating func variableInteger(_ value: Int) {
    var rest = value
    repeat {
      var digit = UInt8(rest % 128)
      rest /= 128
      if rest > 0 { digit |= 0x80 }
      bytes.append(digit)
    } while rest > 0
  }

  public mutating func string(_ text: String) { binary(Array(text.utf8)) }

  public mutating func binary(_ data: [UInt8]) {
    uint16(UInt16(data.count))
    bytes.append(contentsOf: data)
  }

  public mutating func append(_ data: [UInt8]) { bytes.append(contentsOf: data) }

  /// A whole packet: the first byte, the remaining length, then `body`.
  public static func packet(_ first: UInt8, body: [UInt8]) -> [UInt8] {
    var writer = MQTTWriter()
    writer.byte(first)
    writer.variableInteger(body.count)
    writer.append(body)
    return writer.bytes
  }
}

/// Why bytes from the broker are not a packet this client can read; the connection is then
/// closed (MQTT 5 calls it a malformed packet or a protocol error).
public struct MQTTProtocolError: Error, Sendable, Hashable, CustomStringConvertible {
  public var description: String
  public init(_ description: String) { self.description = description }
}

public struct MQTTReader {
  private let bytes: ArraySlice<UInt8>
  private var index: Int

  public init(_ bytes: ArraySlice<UInt8>) {
    self.bytes = bytes
    index = bytes.startIndex
  }

  public var remaining: Int { bytes.endIndex - index }
  public var isAtEnd: Bool { index >= bytes.endIndex }

  public mutating func byte() throws(MQTTProtocolError) -> UInt8 {
    guard index < bytes.endIndex else { throw MQTTProtocolError("a packet ends inside a field") }
    defer { index += 1 }
    return bytes[index]
  }

  public mutating func uint16() throws(MQTTProtocolError) -> UInt16 {
    UInt16(try byte()) << 8 | UInt16(try byte())
  }

  public mutating func uint32() throws(MQTTProtocolError) -> UInt32 {
    var value: UInt32 = 0
    for _ in 0..<4 { value = value << 8 | UInt32(try byte()) }
    return value
  }

  public mutating func variableInteger() throws(MQTTProtocolError) -> Int {
    var value = 0
    var multiplier = 1
    for _ in 0..<4 {
      let digit = try byte()
      value += Int(digit & 0x7F) * multiplier
      if digit & 0x80 == 0 { return value }
      multiplier *= 128
    }
    throw MQTTProtocolError("a variable byte integer runs over 4 bytes")
  }

  public mutating func take(_ count: Int) throws(MQTTProtocolError) -> ArraySlice<UInt8> {
    guard count >= 0, count <= remaining else { throw MQTTProtocolError("a packet ends inside a field") }
    defer { index += count }
    return bytes[index..<index + count]
  }

  public mutating func binary() throws(MQTTProtocolError) -> ArraySlice<UInt8> {
    try take(Int(try uint16()))
  }

  public mutating func string() throws(MQTTProtocolError) -> String {
    let data = try binary()
    guard let text = String(validating: data, as: UTF8.self) else {
      throw MQTTProtocolError("a string is not UTF-8")
    }
    return text
  }

  /// The rest of the packet.
  public mutating func rest() -> ArraySlice<UInt8> {
    defer { index = bytes.endIndex }
    return bytes[index...]
  }
}
