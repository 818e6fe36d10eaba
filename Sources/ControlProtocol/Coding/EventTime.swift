import FoundationEssentials

/// A time inside an event's fields (`at`, `fix_time`, `retry_at`), written as every time on
/// the socket is (`UTCTimestamp`: ISO 8601 UTC, nearest millisecond) whatever the encoder's
/// date strategy, because a follower measures a 15 s retry or a reroute's latency with them
/// and a line read and written again must be the same line. An optional one (`Date?`) is
/// left out when it has no value, and read as nil when it is missing.
@propertyWrapper
public struct EventTime<Value: EventTimeValue>: Codable, Sendable, Hashable {
  public var wrappedValue: Value

  public init(wrappedValue: Value) {
    self.wrappedValue = wrappedValue
  }

  public init(from decoder: any Decoder) throws {
    wrappedValue = try Value(eventTimeFrom: decoder)
  }

  public func encode(to encoder: any Encoder) throws {
    try wrappedValue.encodeEventTime(to: encoder)
  }
}

/// What an `@EventTime` member holds: a `Date`, or a `Date?`.
public protocol EventTimeValue: Sendable, Hashable {
  init(eventTimeFrom decoder: any Decoder) throws
  func encodeEventTime(to encoder: any Encoder) throws
}

extension Date: EventTimeValue {
  public init(eventTimeFrom decoder: any Decoder) throws {
    self = try ControlCoding.decodeDate(from: decoder)
  }

  public func encodeEventTime(to encoder: any Encoder) throws {
    try ControlCoding.encode(self, to: encoder)
  }
}

extension Optional: EventTimeValue where Wrapped == Date {
  public init(eventTimeFrom decoder: any Decoder) throws {
    self = try decoder.singleValueContainer().decodeNil() ? nil : try Date(eventTimeFrom: decoder)
  }

  public func encodeEventTime(to encoder: any Encoder) throws {
    switch self {
    case .some(let date): try date.encodeEventTime(to: encoder)
    case .none:
      var container = encoder.singleValueContainer()
      try container.encodeNil()
    }
  }
}

extension KeyedEncodingContainer {
  /// What synthesized encoding calls for an optional `@EventTime` member: no value, no key.
  public mutating func encode(_ value: EventTime<Date?>, forKey key: Key) throws {
    if value.wrappedValue != nil { try encodeIfPresent(value, forKey: key) }
  }
}

extension KeyedDecodingContainer {
  /// What synthesized decoding calls for an optional `@EventTime` member: missing is nil.
  public func decode(_ type: EventTime<Date?>.Type, forKey key: Key) throws -> EventTime<Date?> {
    try decodeIfPresent(type, forKey: key) ?? EventTime(wrappedValue: nil)
  }
}
