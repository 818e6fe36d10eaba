import DashPilotCore
import FoundationEssentials

/// One report from gpsd, already converted to Swift values. Live capture and offline
/// replay both produce these from the raw JSON line through `GPSDJSONDecoder`, so the two
/// can never disagree about what a line meant.
public enum GPSDReport: Sendable, Hashable {
  case tpv(GPSDTPV)
  case device(GPSDDevice)
  case version(GPSDVersion)
  case error(message: String)
  /// A report DashPilot has no use for (SKY, GST, WATCH, DEVICES, AIS ...), by its class.
  case other(className: String)
}

/// A time-position-velocity report. Every field gpsd may leave out is optional, and a
/// field that is present but not finite is dropped: libgps's `status` is not trusted, only
/// `mode` and the finite fields are.
public struct GPSDTPV: Sendable, Hashable {
  public var mode: FixCandidate.Mode
  public var time: Date?
  public var latitude: Double?
  public var longitude: Double?
  /// Horizontal position error (95 %), metres.
  public var eph: Double?
  public var epx: Double?
  public var epy: Double?
  /// Ground speed, m/s.
  public var speed: Double?
  /// Course over ground, degrees from true north.
  public var track: Double?
  /// The device that produced it, when gpsd says.
  public var device: String?

  public init(
    mode: FixCandidate.Mode, time: Date? = nil, latitude: Double? = nil, longitude: Double? = nil,
    eph: Double? = nil, epx: Double? = nil, epy: Double? = nil, speed: Double? = nil,
    track: Double? = nil, device: String? = nil
  ) {
    self.mode = mode
    self.time = time
    self.latitude = latitude
    self.longitude = longitude
    self.eph = eph
    self.epx = epx
    self.epy = epy
    self.speed = speed
    self.track = track
    self.device = device
  }

  /// Whether the receiver claims a 2D or 3D fix with a position: what makes fixes "flow".
  public var hasPosition: Bool { mode.hasFix && latitude != nil && longitude != nil }

  /// The fix as `RouteSampleFilter` judges it; `age` is what `FixAgeEstimator` said. A
  /// report without a position becomes a candidate with a non-finite coordinate, which the
  /// filter rejects by reason (no fix, or invalid coordinate) so it is still counted.
  public func candidate(age: TimeInterval?) -> FixCandidate {
    FixCandidate(
      mode: mode, time: time,
      coordinate: GeoCoordinate(latitude: latitude ?? .nan, longitude: longitude ?? .nan),
      eph: eph, epx: epx, epy: epy, speed: speed, course: track, age: age)
  }
}

/// A DEVICE report: a receiver gpsd opened, identified or lost.
public struct GPSDDevice: Sendable, Hashable {
  public var path: String?
  /// True when gpsd gave an activation time, false for `"activated":0` (the device was
  /// removed), nil when the report does not say (a driver identification, for example).
  public var activated: Bool?

  public init(path: String?, activated: Bool?) {
    self.path = path
    self.activated = activated
  }
}

/// The banner gpsd sends first on every connection: a VERSION is a new gpsd connection.
public struct GPSDVersion: Sendable, Hashable {
  public var release: String
  public var protocolMajor: Int?
  public var protocolMinor: Int?

  public init(release: String, protocolMajor: Int?, protocolMinor: Int?) {
    self.release = release
    self.protocolMajor = protocolMajor
    self.protocolMinor = protocolMinor
  }
}
