import FoundationEssentials

/// Something that happened in the daemon, streamed to `events` followers as
/// `{"v":1,"event":{"type":"...","time":"...","message":"...","fields":{...}}}`.
/// `type` is dotted (`capture.session_started`, `shift.ended`, `guidance.off_route`,
/// `daemon.stopping`); `message` is the same sentence the journal gets.
public struct ControlEvent: Sendable, Hashable, Codable {
  public var type: String
  public var time: Date
  public var message: String
  public var fields: [String: JSONValue]

  public init(type: String, time: Date, message: String, fields: [String: JSONValue] = [:]) {
    self.type = type
    self.time = time
    self.message = message
    self.fields = fields
  }

  /// The line written to a follower.
  public var encodedLine: Data {
    ControlCoding.line(Envelope(v: ControlProtocolLimits.version, event: self))
  }

  struct Envelope: Encodable {
    var v: Int
    var event: ControlEvent
  }
}
