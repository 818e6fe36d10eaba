import DashPilotCore
import FoundationEssentials

// The fields of the daemon's, gpsd's, capture's, shifts' and the store's events.

extension DaemonEvent {
  /// `{}`: the type says it all.
  public struct NoFields: Sendable, Hashable, Codable {
    private enum CodingKeys: CodingKey {}

    public init() {}

    public init(from decoder: any Decoder) throws {
      _ = try decoder.container(keyedBy: CodingKeys.self)
    }

    public func encode(to encoder: any Encoder) throws {
      _ = encoder.container(keyedBy: CodingKeys.self)
    }
  }

  /// `{"reason":"..."}`: a signal's name, or what gpsd's connection said.
  public struct Reason: Sendable, Hashable, Codable {
    public var reason: String

    public init(_ reason: String) {
      self.reason = reason
    }
  }

  /// The receiver gpsd reports fixes from.
  public struct Device: Sendable, Hashable, Codable {
    public var device: String

    public init(device: String) {
      self.device = device
    }
  }

  /// A receiver gpsd deactivated; `device` is null when gpsd did not name it.
  public struct DeviceRemoved: Sendable, Hashable, Codable {
    public var device: String?
    public static let reason = "device removed"

    public init(device: String?) {
      self.device = device
    }

    private enum CodingKeys: String, CodingKey { case device, reason }

    public init(from decoder: any Decoder) throws {
      device = try decoder.container(keyedBy: CodingKeys.self).decodeIfPresent(String.self, forKey: .device)
    }

    public func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(device, forKey: .device)
      try container.encode(Self.reason, forKey: .reason)
    }
  }

  /// A capture session starting or ending. `shift` is absent for the sessions a restart
  /// ends (the new process ends them before it knows of any shift), and for a session while
  /// no shift is open (`[Shift] Start=movement` captures to see the vehicle move); `reason`
  /// is a sentence.
  public struct CaptureSession: Sendable, Hashable, Codable {
    public var session: String
    public var shift: Int64?
    public var reason: String

    public init(session: String, shift: Int64?, reason: String) {
      self.session = session
      self.shift = shift
      self.reason = reason
    }
  }

  /// A session whose receiver reports no error estimate, and the accuracy its fixes are
  /// kept with (metres, `[Capture] AssumedAccuracy=`); `shift` is absent while none is open.
  public struct AccuracyAssumed: Sendable, Hashable, Codable {
    public var session: String
    public var shift: Int64?
    public var accuracyMetres: Double
    public static let reason = "no error estimate"

    public init(session: String, shift: Int64?, accuracyMetres: Double) {
      self.session = session
      self.shift = shift
      self.accuracyMetres = accuracyMetres
    }

    private enum CodingKeys: String, CodingKey {
      case session, shift, reason
      case accuracyMetres = "accuracy_m"
    }

    public init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      session = try container.decode(String.self, forKey: .session)
      shift = try container.decodeIfPresent(Int64.self, forKey: .shift)
      accuracyMetres = try container.decode(Double.self, forKey: .accuracyMetres)
    }

    public func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(session, forKey: .session)
      try container.encodeIfPresent(shift, forKey: .shift)
      try container.encode(accuracyMetres, forKey: .accuracyMetres)
      try container.encode(Self.reason, forKey: .reason)
    }
  }

  /// The shift an event is about.
  public struct ShiftNumber: Sendable, Hashable, Codable {
    public var shift: Int64

    public init(shift: Int64) {
      self.shift = shift
    }
  }

  /// A shift still open when the daemon started: capture resumes in a new session.
  public struct ShiftResumed: Sendable, Hashable, Codable {
    public var shift: Int64
    public static let reason = "daemon restarted"

    public init(shift: Int64) {
      self.shift = shift
    }

    private enum CodingKeys: String, CodingKey { case shift, reason }

    public init(from decoder: any Decoder) throws {
      shift = try decoder.container(keyedBy: CodingKeys.self).decode(Int64.self, forKey: .shift)
    }

    public func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(shift, forKey: .shift)
      try container.encode(Self.reason, forKey: .reason)
    }
  }

  /// A shift opened, and how: by hand (`shift start`), or on movement, when its window
  /// begins at the movement's first fix (`started_at`, on the receiver's clock, before the
  /// event). `reason` repeats `started_by`, as the journal's DASHPILOT_REASON does.
  public struct ShiftStarted: Sendable, Hashable, Codable {
    public var shift: Int64
    public var startedBy: ShiftStartCause
    /// The shift's start as stored; nil on a line from a daemon that did not say.
    public var startedAt: Date?

    public init(shift: Int64, startedBy: ShiftStartCause = .manual, startedAt: Date? = nil) {
      self.shift = shift
      self.startedBy = startedBy
      self.startedAt = startedAt
    }

    private enum CodingKeys: String, CodingKey {
      case shift, reason
      case startedBy = "started_by"
      case startedAt = "started_at"
    }

    public init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      shift = try container.decode(Int64.self, forKey: .shift)
      // A daemon before shifts started by themselves started them only by hand.
      startedBy = try container.decodeIfPresent(ShiftStartCause.self, forKey: .startedBy) ?? .manual
      startedAt = try container.decodeIfPresent(EventTime.self, forKey: .startedAt)?.wrappedValue
    }

    public func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(shift, forKey: .shift)
      try container.encode(startedBy, forKey: .startedBy)
      try container.encode(startedBy.rawValue, forKey: .reason)
      try container.encodeIfPresent(startedAt.map(EventTime.init(wrappedValue:)), forKey: .startedAt)
    }
  }

  /// A shift ended, how (`ended_by`), where its window ends (`ended_at`, on the receiver's
  /// clock: its last moving fix when it ended by itself) and its figure's summary ("12.4 mi
  /// recorded · partial route"). `reason` repeats `ended_by`.
  public struct ShiftEnded: Sendable, Hashable, Codable {
    public var shift: Int64
    public var summary: String
    public var endedBy: ShiftEndCause
    /// The shift's end as stored; nil on a line from a daemon that did not say.
    public var endedAt: Date?

    public init(shift: Int64, summary: String, endedBy: ShiftEndCause = .manual, endedAt: Date? = nil) {
      self.shift = shift
      self.summary = summary
      self.endedBy = endedBy
      self.endedAt = endedAt
    }

    private enum CodingKeys: String, CodingKey {
      case shift, summary, reason
      case endedBy = "ended_by"
      case endedAt = "ended_at"
    }

    public init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      shift = try container.decode(Int64.self, forKey: .shift)
      summary = try container.decode(String.self, forKey: .summary)
      endedBy = try container.decodeIfPresent(ShiftEndCause.self, forKey: .endedBy) ?? .manual
      endedAt = try container.decodeIfPresent(EventTime.self, forKey: .endedAt)?.wrappedValue
    }

    public func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(shift, forKey: .shift)
      try container.encode(summary, forKey: .summary)
      try container.encode(endedBy, forKey: .endedBy)
      try container.encode(endedBy.rawValue, forKey: .reason)
      try container.encodeIfPresent(endedAt.map(EventTime.init(wrappedValue:)), forKey: .endedAt)
    }
  }

  /// A write to the store failed; `shift` is absent when none was open.
  public struct StoreFailure: Sendable, Hashable, Codable {
    public var shift: Int64?
    public var reason: String

    public init(shift: Int64?, reason: String) {
      self.shift = shift
      self.reason = reason
    }
  }
}
