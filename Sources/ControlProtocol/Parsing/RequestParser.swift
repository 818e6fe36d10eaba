import FoundationEssentials

/// Why a request line was refused, with the id when the line carried a readable one so
/// the answer can be matched to it.
public struct RequestParseError: Error, Sendable, Hashable {
  public var id: Int64?
  public var error: ControlError

  public init(id: Int64?, _ code: ControlError.Code, _ message: String) {
    self.id = id
    self.error = ControlError(code, message)
  }
}

/// Turns one request line into a checked request or a typed error. Pure (no I/O, no
/// state), total (every byte string gets an answer, none traps), so a fuzzer can drive it
/// directly.
public enum RequestParser {
  /// Parses `line`, the bytes before the newline (a trailing carriage return is allowed).
  public static func parse<Bytes: Collection>(_ line: Bytes) -> Result<ControlRequest, RequestParseError>
  where Bytes.Element == UInt8 {
    var bytes = Array(line)
    if bytes.last == 0x0D { bytes.removeLast() }
    guard bytes.count <= ControlProtocolLimits.maximumLineLength else {
      return .failure(
        RequestParseError(
          id: nil, .lineTooLong,
          "the request line is \(bytes.count) bytes; the limit is \(ControlProtocolLimits.maximumLineLength)"))
    }
    let value: JSONValue
    do {
      value = try JSONDecoder().decode(JSONValue.self, from: Data(bytes))
    } catch {
      return .failure(RequestParseError(id: nil, .notJSON, "the request is not valid JSON"))
    }
    guard case .object(let members) = value else {
      return .failure(RequestParseError(id: nil, .badRequest, "a request is a JSON object"))
    }
    return parse(object: members)
  }

  static func parse(object members: [String: JSONValue]) -> Result<ControlRequest, RequestParseError> {
    let id = members["id"]?.integerValue
    for key in members.keys where !["v", "id", "cmd", "args"].contains(key) {
      return .failure(RequestParseError(id: id, .badRequest, "unknown request field \"\(key)\""))
    }
    guard let versionValue = members["v"] else {
      return .failure(RequestParseError(id: id, .badRequest, "the request has no protocol version \"v\""))
    }
    guard versionValue.integerValue == Int64(ControlProtocolLimits.version) else {
      return .failure(
        RequestParseError(
          id: id, .unsupportedVersion,
          "protocol version \(describe(versionValue)) is not supported; this daemon speaks version \(ControlProtocolLimits.version)"
        ))
    }
    guard let id else {
      return .failure(RequestParseError(id: nil, .badRequest, "the request needs an integer \"id\""))
    }
    guard let commandName = members["cmd"]?.stringValue else {
      return .failure(RequestParseError(id: id, .badRequest, "the request needs a string \"cmd\""))
    }
    guard let command = ControlCommand(rawValue: commandName) else {
      return .failure(RequestParseError(id: id, .unknownCommand, "unknown command \"\(truncated(commandName))\""))
    }
    let arguments: [String: JSONValue]
    switch members["args"] {
    case nil, .null?: arguments = [:]
    case .object(let object)?: arguments = object
    default:
      return .failure(RequestParseError(id: id, .badArguments, "\"args\" must be a JSON object"))
    }
    do throws(ArgumentFailure) {
      var reader = ArgumentReader(command: command, members: arguments)
      let checked = try reader.read()
      try reader.finish()
      return .success(ControlRequest(id: id, command: command, arguments: checked))
    } catch {
      return .failure(RequestParseError(id: id, .badArguments, "\(command.rawValue): \(error.message)"))
    }
  }

  static func describe(_ value: JSONValue) -> String {
    switch value {
    case .number(let number):
      return number.rounded() == number && abs(number) < 1e15 ? String(Int64(number)) : String(number)
    case .string(let string): return "\"\(truncated(string))\""
    default: return "of that kind"
    }
  }

  static func truncated(_ text: String) -> String {
    text.count <= 40 ? text : String(text.prefix(40)) + "…"
  }
}
