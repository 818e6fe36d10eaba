import FoundationEssentials

/// Something that happened in the daemon, streamed to `events` followers as
/// `{"v":1,"event":{"type":"...","time":"...","message":"...","fields":{...}}}`.
/// `type` and `fields` are the payload's (`DaemonEvent`, every type documented with an
/// exact example in docs/events.md); `message` is the same sentence the journal gets.
public struct ControlEvent: Sendable, Hashable {
  public var payload: DaemonEvent
  public var time: Date
  public var message: String

  public init(_ payload: DaemonEvent, time: Date, message: String) {
    self.payload = payload
    self.time = time
    self.message = message
  }

  /// The dotted type, such as `capture.session_started`.
  public var type: String { payload.type }

  /// The line written to a follower.
  public var encodedLine: Data {
    ControlCoding.line(Envelope(v: ControlProtocolLimits.version, event: self))
  }

  struct Envelope: Encodable {
    var v: Int
    var event: ControlEvent
  }
}

extension ControlEvent: Codable {
  enum CodingKeys: String, CodingKey { case type, time, message, fields }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    time = try container.decode(Date.self, forKey: .time)
    message = try container.decode(String.self, forKey: .message)
    payload = try DaemonEvent(
      type: try container.decode(String.self, forKey: .type), fields: try container.superDecoder(forKey: .fields))
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(type, forKey: .type)
    try container.encode(time, forKey: .time)
    try container.encode(message, forKey: .message)
    try payload.encodeFields(to: container.superEncoder(forKey: .fields))
  }
}
