import DashPilotCore
import FoundationEssentials

/// Why a request was refused, with the id when the request carried a readable one so the
/// answer can be matched to it.
public struct RequestParseError: Error, Sendable, Hashable {
  public var id: RequestID?
  public var error: ControlError

  public init(id: RequestID?, _ code: ControlError.Code, _ message: String) {
    self.id = id
    self.error = ControlError(code, message)
  }
}

/// Turns one request into a checked request or a typed error: the one parser of the
/// envelope `{"v":1,"id":…,"cmd":"…","args":{…}[,"expires_at":"…"]}`, for a line of the
/// control socket and a message of the fleet's command topic alike. Pure (no I/O, no
/// state, no clock: whether `expires_at` has passed is the caller's judgement), total
/// (every byte string gets an answer, none traps), so a fuzzer can drive it directly.
public enum RequestParser {
  /// Parses `request`, the bytes of one request (a line without its newline; a trailing
  /// carriage return is allowed). A request longer than `limit` bytes is refused unread
  /// with `tooLong`: the socket's lines are `lineTooLong` beyond 64 KiB, a fleet command
  /// is `tooLarge` beyond 1 MiB.
  public static func parse<Bytes: Collection>(
    _ request: Bytes, limit: Int = ControlProtocolLimits.maximumLineLength,
    tooLong: ControlError.Code = .lineTooLong
  ) -> Result<ControlRequest, RequestParseError>
  where Bytes.Element == UInt8 {
    var bytes = Array(request)
    if bytes.last == 0x0D { bytes.removeLast() }
    guard bytes.count <= limit else {
      let what = tooLong == .lineTooLong ? "request line" : "request"
      return .failure(
        RequestParseError(id: nil, tooLong, "the \(what) is \(bytes.count) bytes; the limit is \(limit)"))
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

  static let envelopeMembers: Set<String> = ["v", "id", "cmd", "args", "expires_at"]

  static func parse(object members: [String: JSONValue]) -> Result<ControlRequest, RequestParseError> {
    let id = members["id"].flatMap(RequestID.init)
    for key in members.keys.sorted() where !envelopeMembers.contains(key) {
      return .failure(RequestParseError(id: id, .badRequest, "unknown request field \"\(truncated(key))\""))
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
      return .failure(
        RequestParseError(
          id: nil, .badRequest,
          "the request needs an \"id\": an integer, or a string of 1 to \(RequestID.maximumTextBytes) bytes"))
    }
    guard let commandName = members["cmd"]?.stringValue else {
      return .failure(RequestParseError(id: id, .badRequest, "the request needs a string \"cmd\""))
    }
    guard let kind = ControlCommand.Kind(rawValue: commandName) else {
      return .failure(RequestParseError(id: id, .unknownCommand, "unknown command \"\(truncated(commandName))\""))
    }
    var expiresAt: Date?
    if let value = members["expires_at"], value != .null {
      guard let text = value.stringValue, let date = ArgumentReader.wireTime(text) else {
        return .failure(
          RequestParseError(
            id: id, .badRequest,
            "\"expires_at\" must be a UTC time in ISO 8601, such as 2024-05-01T10:00:00Z or 2024-05-01T10:00:00.000Z"))
      }
      expiresAt = date
    }
    let arguments: [String: JSONValue]
    switch members["args"] {
    case nil, .null?: arguments = [:]
    case .object(let object)?: arguments = object
    default:
      return .failure(RequestParseError(id: id, .badArguments, "\"args\" must be a JSON object"))
    }
    do throws(ArgumentFailure) {
      var reader = ArgumentReader(kind: kind, members: arguments)
      let command = try reader.read()
      try reader.finish()
      return .success(ControlRequest(id: id, command: command, expiresAt: expiresAt))
    } catch {
      return .failure(RequestParseError(id: id, .badArguments, "\(kind.rawValue): \(error.message)"))
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
