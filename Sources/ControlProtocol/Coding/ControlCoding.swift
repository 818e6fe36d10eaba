import DashPilotCore
import FoundationEssentials

/// The one place lines are encoded and decoded, so dates and key order are the same on
/// both ends of the socket. Dates are `UTCTimestamp`'s, with milliseconds, as every time
/// DashPilot writes (Foundation's `.iso8601` drops the fraction: a fix at .500 read .000).
public enum ControlCoding {
  public static func makeEncoder() -> JSONEncoder {
    let encoder = JSONEncoder()
    encoder.dateEncodingStrategy = .custom(encode(_:to:))
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return encoder
  }

  public static func makeDecoder() -> JSONDecoder {
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .custom(decodeDate(from:))
    return decoder
  }

  /// `date` as `UTCTimestamp` writes it: the socket's one form of an instant.
  public static func encode(_ date: Date, to encoder: any Encoder) throws {
    guard let text = UTCTimestamp.string(date) else {
      throw EncodingError.invalidValue(
        date, EncodingError.Context(codingPath: encoder.codingPath, debugDescription: "no year 0000-9999"))
    }
    var container = encoder.singleValueContainer()
    try container.encode(text)
  }

  /// The instant a string in `UTCTimestamp`'s form names.
  public static func decodeDate(from decoder: any Decoder) throws -> Date {
    let container = try decoder.singleValueContainer()
    let text = try container.decode(String.self)
    guard let date = UTCTimestamp.parse(text) else {
      throw DecodingError.dataCorruptedError(
        in: container, debugDescription: "\"\(text)\" is not a UTC time such as 2024-05-01T10:00:00.000Z")
    }
    return date
  }

  /// `value` as JSON text, for a writer of its own that embeds it (the uplink's messages,
  /// `replay --json`); null in the unexpected case that encoding fails.
  public static func text<T: Encodable>(_ value: T) -> String {
    guard let data = try? makeEncoder().encode(value) else { return "null" }
    return String(decoding: data, as: UTF8.self)
  }

  /// `value` as one line of JSON with its newline. Encoding our own types cannot fail in
  /// practice; if it ever does, the line says so instead of trapping.
  public static func line<T: Encodable>(_ value: T) -> Data {
    var data: Data
    do {
      data = try makeEncoder().encode(value)
    } catch {
      data = Data(
        #"{"v":1,"id":null,"ok":false,"error":{"code":"failed","message":"the daemon could not encode its answer"}}"#
          .utf8)
    }
    data.append(0x0A)
    return data
  }
}
