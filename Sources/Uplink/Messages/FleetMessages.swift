import ControlProtocol
import DashPilotCore
import FoundationEssentials

/// One of the daemon's events a dispatcher follows (`PREFIX/events`): the very event
/// `dashpilotctl events` prints (docs/events.md), with the shift it happened in, so the
/// fields a component adds to its event reach the fleet without a second schema.
public struct FleetEvent: Sendable, Hashable {
  /// The shift open when it happened (the event's own for a shift event).
  public var shiftID: Int64?
  public var event: ControlEvent

  public init(shiftID: Int64?, event: ControlEvent) {
    self.shiftID = shiftID
    self.event = event
  }

  /// The types published: what guidance did with the route, the shift starting and
  /// ending, and the vehicle entering and leaving places. The rest (gpsd, capture sessions,
  /// progress every 100 m) stays on the box.
  public static let publishedTypes: Set<DaemonEvent.Kind> = [
    .guidanceJoined, .guidanceOffRoute, .guidanceRerouteRequested, .guidanceRerouted, .guidanceRerouteFailed,
    .guidanceBackOnRoute, .guidanceArrived, .shiftStarted, .shiftEnded, .placeEntered, .placeLeft, .jobArrived,
    .jobVisited, .jobNotReached,
  ]

  /// Whether `event` is one the fleet hears of.
  public static func isPublished(_ event: DaemonEvent) -> Bool {
    event.kind.map(publishedTypes.contains) ?? false
  }
}

/// The answer to a fleet command, exactly as the control socket would have written it
/// (`{"id":"…","ok":…,"v":1,…}`, without the newline), for `PREFIX/reply`.
public struct CommandReply: Sendable, Hashable {
  public var id: String
  public var payload: [UInt8]

  public init(id: String, payload: [UInt8]) {
    self.id = id
    self.payload = payload
  }

  /// The reply carrying `answer` to the command `id`.
  public init(id: String, answer: Result<any Encodable, ControlError>) {
    var line =
      switch answer {
      case .success(let result): ControlResponse.success(id: .text(id), result: AnyEncodable(result))
      case .failure(let error): ControlResponse.failure(id: .text(id), error: error)
      }
    if line.last == 0x0A { line.removeLast() }
    self.init(id: id, payload: Array(line))
  }

  /// The reply's answer, read back: ok, or the error code.
  public var outcome: String {
    guard case .success(.answer(_, let outcome)) = ServerLine.parse(Data(payload)) else { return "unreadable" }
    switch outcome {
    case .success: return "ok"
    case .failure(let error): return error.code.rawValue
    }
  }
}

/// A result of any type, encoded as itself.
private struct AnyEncodable: Encodable {
  let value: any Encodable
  init(_ value: any Encodable) { self.value = value }
  func encode(to encoder: any Encoder) throws { try value.encode(to: encoder) }
}
