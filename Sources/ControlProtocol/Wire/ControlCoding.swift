import FoundationEssentials

/// The one place lines are encoded and decoded, so dates and key order are the same on
/// both ends of the socket.
public enum ControlCoding {
  public static func makeEncoder() -> JSONEncoder {
    let encoder = JSONEncoder()
    encoder.dateEncodingStrategy = .iso8601
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return encoder
  }

  public static func makeDecoder() -> JSONDecoder {
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .iso8601
    return decoder
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
