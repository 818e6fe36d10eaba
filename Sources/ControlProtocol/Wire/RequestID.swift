import DashPilotCore
import FoundationEssentials

/// A request's `id`, echoed in its answer, as the sender chose it: an integer (a socket
/// client numbers the requests of its connection) or a string of 1 to 128 bytes (a fleet
/// dispatcher names each command once, so that a retry of it can be told from a new one).
/// One envelope carries either; which a carrier insists on is the carrier's rule.
public enum RequestID: Sendable, Hashable, CustomStringConvertible, ExpressibleByIntegerLiteral,
  ExpressibleByStringLiteral
{
  case number(Int64)
  case text(String)

  /// The longest string id, in bytes of UTF-8.
  public static let maximumTextBytes = 128

  public init(integerLiteral value: Int64) { self = .number(value) }
  public init(stringLiteral value: String) { self = .text(value) }

  /// The id a request's `id` member holds; nil when it is neither an integer nor a string
  /// of 1 to 128 bytes.
  public init?(_ value: JSONValue) {
    if let number = value.integerValue {
      self = .number(number)
    } else if let text = value.stringValue, (1...Self.maximumTextBytes).contains(text.utf8.count) {
      self = .text(text)
    } else {
      return nil
    }
  }

  /// The string id, nil for a number.
  public var text: String? {
    if case .text(let text) = self { return text }
    return nil
  }

  /// As a log line quotes it: `7`, or `"office-41"` (shortened past 40 characters).
  public var description: String {
    switch self {
    case .number(let number): String(number)
    case .text(let text): "\"\(RequestParser.truncated(text))\""
    }
  }

  var jsonValue: JSONValue {
    switch self {
    case .number(let number): .number(Double(number))
    case .text(let text): .string(text)
    }
  }
}

extension RequestID: Codable {
  public init(from decoder: any Decoder) throws {
    guard let id = RequestID(try JSONValue(from: decoder)) else {
      throw DecodingError.dataCorrupted(
        DecodingError.Context(
          codingPath: decoder.codingPath, debugDescription: "an id is an integer or a string of 1 to 128 bytes"))
    }
    self = id
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    switch self {
    case .number(let number): try container.encode(number)
    case .text(let text): try container.encode(text)
    }
  }
}
