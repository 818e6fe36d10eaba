import DashPilotCore
import FoundationEssentials

/// Builds the answer lines the daemon writes.
public enum ControlResponse {
  /// `{"v":1,"id":N,"ok":true,"result":{...}}` (N as the request gave it: a number or a string)
  public static func success<Result: Encodable>(id: RequestID, result: Result) -> Data {
    if let encoded = result as? EncodedResult { return success(id: id, encoded: encoded) }
    return ControlCoding.line(SuccessEnvelope(v: ControlProtocolLimits.version, id: id, ok: true, result: result))
  }

  /// The envelope written around a placeholder result, whose bytes (the line's known tail,
  /// keys being sorted) are then replaced by the result's own.
  static func success(id: RequestID, encoded: EncodedResult) -> Data {
    var line = ControlCoding.line(SuccessEnvelope(v: ControlProtocolLimits.version, id: id, ok: true, result: 0))
    let tail = Data("0,\"v\":\(ControlProtocolLimits.version)}\n".utf8)
    guard line.count > tail.count, line.suffix(tail.count) == tail else {
      return ControlCoding.line(SuccessEnvelope(v: ControlProtocolLimits.version, id: id, ok: true, result: encoded))
    }
    line.removeLast(tail.count)
    line.append(encoded.json)
    line.append(tail.dropFirst())
    return line
  }

  /// `{"v":1,"id":N,"ok":false,"error":{"code":"...","message":"..."}}`; `id` is null when
  /// the request was too broken to carry one.
  public static func failure(id: RequestID?, error: ControlError) -> Data {
    ControlCoding.line(FailureEnvelope(v: ControlProtocolLimits.version, id: id, ok: false, error: error))
  }

  struct SuccessEnvelope<Result: Encodable>: Encodable {
    var v: Int
    var id: RequestID
    var ok: Bool
    var result: Result
  }

  struct FailureEnvelope: Encodable {
    var v: Int
    @ExplicitNull var id: RequestID?
    var ok: Bool
    var error: ControlError
  }
}

/// One line the daemon wrote, as the client reads it: an answer to a request, or an event
/// of a followed stream.
public enum ServerLine: Sendable {
  case answer(id: RequestID?, outcome: Result<JSONValue, ControlError>)
  case event(ControlEvent)

  /// Parses a line; a line that is neither is reported with what was wrong.
  public static func parse(_ line: Data) -> Result<ServerLine, ControlError> {
    let decoder = ControlCoding.makeDecoder()
    guard let value = try? decoder.decode(JSONValue.self, from: line), case .object(let members) = value
    else { return .failure(ControlError(.notJSON, "the daemon's answer is not a JSON object")) }
    guard members["v"]?.integerValue == Int64(ControlProtocolLimits.version) else {
      return .failure(ControlError(.unsupportedVersion, "the daemon speaks another protocol version"))
    }
    if members["event"] != nil {
      guard let event = try? decoder.decode(EventEnvelope.self, from: line) else {
        return .failure(ControlError(.notJSON, "the daemon's event line has an unexpected shape"))
      }
      return .success(.event(event.event))
    }
    let id = members["id"].flatMap(RequestID.init)
    switch members["ok"] {
    case .bool(true):
      return .success(.answer(id: id, outcome: .success(members["result"] ?? .null)))
    case .bool(false):
      guard let envelope = try? decoder.decode(ErrorEnvelope.self, from: line) else {
        return .failure(ControlError(.notJSON, "the daemon's error answer has an unexpected shape"))
      }
      return .success(.answer(id: id, outcome: .failure(envelope.error)))
    default:
      return .failure(ControlError(.notJSON, "the daemon's answer has no \"ok\""))
    }
  }

  /// Decodes an answer's result into the type the command answers with.
  public static func decode<T: Decodable>(_ type: T.Type, from result: JSONValue) -> Result<T, ControlError> {
    do {
      let data = try ControlCoding.makeEncoder().encode(result)
      return .success(try ControlCoding.makeDecoder().decode(type, from: data))
    } catch {
      return .failure(ControlError(.notJSON, "the daemon's answer does not have the expected fields (\(error))"))
    }
  }

  struct ErrorEnvelope: Decodable { var error: ControlError }
  struct EventEnvelope: Decodable { var event: ControlEvent }
}
