import DashPilotCore
import FoundationEssentials

/// A request after the parser has checked it: a known command with arguments of the
/// right shape. Nothing downstream of the parser ever sees unchecked input.
public struct ControlRequest: Sendable, Hashable {
  public var id: RequestID
  public var command: ControlCommand
  /// When the sender stops wanting it done (`expires_at`): a command still undelivered by
  /// then is refused with `expired`, not run. Nil: whenever it arrives.
  public var expiresAt: Date?

  public init(id: RequestID, command: ControlCommand, expiresAt: Date? = nil) {
    self.id = id
    self.command = command
    self.expiresAt = expiresAt
  }

  /// The request as one line of JSON, newline included: what the client writes.
  public func encodedLine() -> Data {
    var members: [String: JSONValue] = [
      "v": .number(Double(ControlProtocolLimits.version)),
      "id": id.jsonValue,
      "cmd": .string(command.name),
    ]
    let arguments = command.arguments
    if !arguments.isEmpty { members["args"] = .object(arguments) }
    if let expiresAt, let text = UTCTimestamp.string(expiresAt) { members["expires_at"] = .string(text) }
    return ControlCoding.line(JSONValue.object(members))
  }
}
