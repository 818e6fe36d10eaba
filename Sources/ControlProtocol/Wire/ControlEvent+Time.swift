import FoundationEssentials

/// A time inside an event's fields (`at`, `fix_time`, `retry_at`), written as every time on
/// the socket is (`UTCTimestamp`: ISO 8601 UTC, nearest millisecond) whatever the encoder's
/// date strategy, because a follower measures a 15 s retry or a reroute's latency with them
/// and a line read and written again must be the same line.
@propertyWrapper
public struct EventTime: Sendable, Hashable, Codable {
  public var wrappedValue: Date

  public init(wrappedValue: Date) {
    self.wrappedValue = wrappedValue
  }

  public init(from decoder: any Decoder) throws {
    wrappedValue = try ControlCoding.decodeDate(from: decoder)
  }

  public func encode(to encoder: any Encoder) throws {
    try ControlCoding.encode(wrappedValue, to: encoder)
  }
}
