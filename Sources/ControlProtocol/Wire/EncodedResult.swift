import DashPilotCore
import FoundationEssentials

/// A result already written as JSON, by the thread that read it: an answer of many
/// megabytes (a 10-hour 10 Hz shift's export) took the loop 1.5 s to encode, and `status`
/// waited behind it. `ControlResponse.success` splices the bytes into the answer line as they
/// are; any other carrier encodes it as the value it holds.
public struct EncodedResult: Encodable, Sendable {
  /// The result's JSON, without a newline.
  public let json: Data

  public init<Result: Encodable>(_ result: Result) {
    var line = ControlCoding.line(result)
    line.removeLast()
    json = line
  }

  public func encode(to encoder: any Encoder) throws {
    try ControlCoding.makeDecoder().decode(JSONValue.self, from: json).encode(to: encoder)
  }
}
