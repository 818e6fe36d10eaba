import ControlProtocol
import FoundationEssentials

/// What a box sent, read and judged (docs/uplink-messages.md): one of the queued kinds with
/// its envelope (the idempotency key's parts), or the retained status. Everything the
/// office writes for a message is derived from this value.
public enum BoxMessage: Sendable, Hashable {
  case samples(Envelope, SamplesBody)
  case shift(Envelope, ShiftBody)
  case session(Envelope, SessionBody)
  case stop(Envelope, WireStop)
  case event(Envelope, EventBody)
  case status(StatusBody)

  /// The common fields of a queued message: `key` is "VEHICLE/SHIFT/SEQUENCE".
  public struct Envelope: Sendable, Hashable {
    public var vehicle: String
    public var shift: Int64?
    public var sequence: Int64
    public var queuedAt: Date

    public init(vehicle: String, shift: Int64?, sequence: Int64, queuedAt: Date) {
      self.vehicle = vehicle
      self.shift = shift
      self.sequence = sequence
      self.queuedAt = queuedAt
    }

    /// The key the box writes for these fields: `-` for no shift.
    public var key: String { "\(vehicle)/\(shift.map(String.init) ?? "-")/\(sequence)" }
  }

  /// One position of a `samples` message, its capture session resolved (a sample's own, else
  /// the batch's).
  public struct Sample: Sendable, Hashable {
    public var time: Date
    public var latitude: Double
    public var longitude: Double
    public var accuracy: Double
    public var speed: Double?
    public var course: Double?
    public var isHeld: Bool
    public var isAccuracyAssumed: Bool
    public var isDatedByArrival: Bool
    public var captureSession: String?

    public init(
      time: Date, latitude: Double, longitude: Double, accuracy: Double, speed: Double? = nil, course: Double? = nil,
      isHeld: Bool = false, isAccuracyAssumed: Bool = false, isDatedByArrival: Bool = false, captureSession: String?
    ) {
      self.time = time
      self.latitude = latitude
      self.longitude = longitude
      self.accuracy = accuracy
      self.speed = speed
      self.course = course
      self.isHeld = isHeld
      self.isAccuracyAssumed = isAccuracyAssumed
      self.isDatedByArrival = isDatedByArrival
      self.captureSession = captureSession
    }
  }

  public struct SamplesBody: Sendable, Hashable {
    public var shift: Int64
    public var samples: [Sample]
  }

  /// A completed shift with the box's figure exactly as sent.
  public struct ShiftBody: Sendable, Hashable {
    public var shift: Int64
    public var startedAt: Date
    public var endedAt: Date
    public var startedBy: String?
    public var endedBy: String?
    public var distance: WireDistance
    public var summary: String
    public var jobs: [WireJob]
  }

  public struct SessionBody: Sendable, Hashable {
    public var captureSession: String
    /// "start" or "end".
    public var event: String
    public var at: Date
    public var reason: String
  }

  /// An event: its type and time (the row's key with the vehicle), and the job it tells of,
  /// for the `job.*` types. The event itself is stored as sent (`event` in the payload).
  public struct EventBody: Sendable, Hashable {
    public var type: String
    public var time: Date
    public var job: WireJob?
  }

  /// The retained `status`: online (since when) or offline (the last will carries no time).
  public struct StatusBody: Sendable, Hashable {
    public var vehicle: String
    public var state: String
    public var since: Date?
  }

  public var envelope: Envelope? {
    switch self {
    case .samples(let envelope, _), .shift(let envelope, _), .session(let envelope, _), .stop(let envelope, _),
      .event(let envelope, _):
      envelope
    case .status: nil
    }
  }

  public var vehicle: String {
    if case .status(let body) = self { return body.vehicle }
    return envelope?.vehicle ?? ""
  }

  public var sampleCount: Int {
    if case .samples(_, let body) = self { return body.samples.count }
    return 0
  }
}
