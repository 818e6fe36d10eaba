import ControlProtocol
import DashPilotCore
import FoundationEssentials

/// A message the broker delivered on the command topic, as libmosquitto handed it over. A
/// payload over the command size limit is not copied: only its size is kept.
public struct InboundCommand: Sendable, Hashable {
  public var topic: String
  /// Nil when the payload was larger than `ControlProtocolLimits.maximumCommandSize`.
  public var payload: [UInt8]?
  public var size: Int
  /// Delivered from the broker's retained store rather than sent now.
  public var retained: Bool

  public init(topic: String, payload: [UInt8]?, size: Int, retained: Bool = false) {
    self.topic = topic
    self.payload = payload
    self.size = size
    self.retained = retained
  }
}

/// What becomes of a command message, before anything is run. Pure: no I/O, no clock (the
/// monotonic time is passed in), so every refusal is tested in microseconds.
///
/// In order: the rate (past its burst, a flood is `busy` first, however well-formed), the size, the one
/// parser (the socket's: `not_json`, `unsupported_version`, `unknown_command`,
/// `bad_arguments`, ...), then what only the fleet channel asks of a request: a string id
/// (the sender's, so a retry is recognised), not retained, an allowed command, and the
/// whole of a route or track in the one message. Whether it has expired is the dispatcher's
/// judgement, when it is about to run, for the socket's requests as for these.
public struct CommandIntake: Sendable {
  public enum Decision: Sendable, Hashable {
    /// Run it: it is a new command unless the ledger remembers its id.
    case run(ControlRequest, id: String)
    /// Refuse it: reply with `error` when `id` could be read, and log `log` when set.
    case refuse(id: RequestID?, ControlError, log: String?)
  }

  public let allowed: Set<ControlCommand.Kind>
  private var rate: CommandRateBucket
  /// Command names already logged as not allowed (each is logged once).
  private var loggedNotAllowed: Set<String> = []
  /// When (monotonic) the last "busy" line was logged: one a second at most.
  private var lastBusyLog = -Double.infinity

  public init(allowed: Set<ControlCommand.Kind>, rate: CommandRateBucket = CommandRateBucket()) {
    self.allowed = allowed
    self.rate = rate
  }

  public mutating func judge(_ message: InboundCommand, now: Double) -> Decision {
    let parsed = message.payload.map {
      RequestParser.parse($0, limit: ControlProtocolLimits.maximumCommandSize, tooLong: .tooLarge)
    }
    let id: RequestID? =
      switch parsed {
      case .success(let request)?: request.id
      case .failure(let failure)?: failure.id
      case nil: nil
      }
    guard rate.admit(at: now) else {
      var log: String?
      if now - lastBusyLog >= 1 {
        lastBusyLog = now
        log =
          "uplink: more than \(rate.perSecond) commands a second after a burst of \(rate.burst) on \(message.topic): "
          + "refusing the excess with busy"
      }
      return .refuse(id: id, ControlError(.busy, Self.busyMessage(rate)), log: log)
    }
    guard let parsed else {
      let error = ControlError(
        .tooLarge,
        "the command is \(message.size) bytes; the limit is \(ControlProtocolLimits.maximumCommandSize)")
      return .refuse(id: nil, error, log: Self.unanswerable(error, message))
    }
    let request: ControlRequest
    switch parsed {
    case .failure(let failure):
      return .refuse(
        id: failure.id, failure.error, log: failure.id == nil ? Self.unanswerable(failure.error, message) : nil)
    case .success(let checked): request = checked
    }
    guard let text = request.id.text else {
      return .refuse(
        id: request.id,
        ControlError(
          .badRequest,
          "a fleet command's \"id\" is a string of 1 to \(RequestID.maximumTextBytes) bytes that the sender never reuses"
        ), log: nil)
    }
    if message.retained {
      return .refuse(
        id: request.id,
        ControlError(
          .badRequest, "a retained message is not a command: publish commands without the retain flag"),
        log: "uplink: refused command \(request.id) on \(message.topic): it was a retained message")
    }
    let name = request.command.name
    guard allowed.contains(request.command.kind) else {
      let log =
        loggedNotAllowed.insert(name).inserted
        ? "uplink: refused \(name) over MQTT (command \(request.id)): [Uplink] AllowedCommands= does not list it;"
          + " further \(name) commands are refused without a log line" : nil
      return .refuse(
        id: request.id,
        ControlError(.notAllowed, "\(name) is not taken over MQTT on this box ([Uplink] AllowedCommands=)"), log: log)
    }
    if request.isPartOfMore {
      return .refuse(
        id: request.id,
        ControlError(
          .badArguments,
          "\(name): a fleet command carries the whole of it in one message (up to 1 MiB); \"more\" parts are for the control socket's 64 KiB lines"
        ), log: nil)
    }
    return .run(request, id: text)
  }

  static func busyMessage(_ rate: CommandRateBucket) -> String {
    "more than \(rate.perSecond) commands a second after a burst of \(rate.burst): this one was not run; send it "
      + "again (with the same id) shortly"
  }

  /// The log line for a refusal no one can be told of: no id could be read to reply to.
  static func unanswerable(_ error: ControlError, _ message: InboundCommand) -> String {
    "uplink: refused a message of \(message.size) bytes on \(message.topic) without a reply (no id could be read): "
      + "\(error.code.rawValue): \(error.message)"
  }
}

extension ControlRequest {
  /// Whether this is a part of a request sent in several (`"more": true`).
  var isPartOfMore: Bool {
    switch command {
    case .import(let part): part.more
    case .routeLoad(let part): part.more
    case .report(let part): part.more
    case .jobAssignAll(let part): part.more
    default: false
    }
  }
}
