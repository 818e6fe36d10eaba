import FoundationEssentials

/// A time inside an event's fields (`at`, `fix_time`, `retry_at`): ISO 8601 UTC with
/// milliseconds, where the envelope's `time` has whole seconds, because a follower measures
/// a 15 s retry or a reroute's latency with them.
///
/// Written rounded to the nearest millisecond (the format style truncates, and a time read
/// back from its own text lies a hair below it), so a line read and written again is the
/// same line.
@propertyWrapper
public struct EventTime: Sendable, Hashable, Codable {
  public var wrappedValue: Date

  public init(wrappedValue: Date) {
    self.wrappedValue = wrappedValue
  }

  private static let style = Date.ISO8601FormatStyle(includingFractionalSeconds: true)

  public static func string(_ date: Date) -> String {
    date.addingTimeInterval(0.0005).formatted(style)
  }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    let text = try container.decode(String.self)
    do {
      wrappedValue = try Date(text, strategy: Self.style)
    } catch {
      throw DecodingError.dataCorruptedError(
        in: container, debugDescription: "\"\(text)\" is not an ISO 8601 time with milliseconds")
    }
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(Self.string(wrappedValue))
  }
}
