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
  /// ends (the new process ends them before it knows of any shift); `reason` is a sentence.
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
  /// kept with (metres, `[Capture] AssumedAccuracy=`).
  public struct AccuracyAssumed: Sendable, Hashable, Codable {
    public var session: String
    public var shift: Int64
    public var accuracyMetres: Double
    public static let reason = "no error estimate"

    public init(session: String, shift: Int64, accuracyMetres: Double) {
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
      shift = try container.decode(Int64.self, forKey: .shift)
      accuracyMetres = try container.decode(Double.self, forKey: .accuracyMetres)
    }

    public func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(session, forKey: .session)
      try container.encode(shift, forKey: .shift)
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

  /// A shift ended, with its figure's summary ("12.4 mi recorded · partial route").
  public struct ShiftEnded: Sendable, Hashable, Codable {
    public var shift: Int64
    public var summary: String

    public init(shift: Int64, summary: String) {
      self.shift = shift
      self.summary = summary
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
