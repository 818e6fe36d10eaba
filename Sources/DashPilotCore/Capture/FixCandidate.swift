import FoundationEssentials

/// A fix as the receiver reported it, before `RouteSampleFilter` has judged it.
public struct FixCandidate: Sendable, Hashable {
  /// gpsd's `mode`: 0 unknown, 1 no fix, 2 two-dimensional, 3 three-dimensional.
  public enum Mode: Int, Sendable, Hashable, Codable {
    case unknown = 0
    case noFix = 1
    case twoDimensional = 2
    case threeDimensional = 3

    public var hasFix: Bool { self == .twoDimensional || self == .threeDimensional }
  }

  public var mode: Mode
  public var time: Date?
  public var coordinate: GeoCoordinate
  /// gpsd's estimated horizontal position error (95 %), metres.
  public var eph: Double?
  /// gpsd's per-axis position errors (95 %), metres; used when `eph` is absent.
  public var epx: Double?
  public var epy: Double?
  public var speed: Double?
  public var course: Double?
  /// How old the fix was when it arrived, judged by the caller (see `FixAgeEstimator` in
  /// Capture); nil when its age cannot be told.
  public var age: TimeInterval?
  /// Whether `time` is the fix's arrival on a synchronised wall clock, the receiver having
  /// sent no date (`ArrivalDating`).
  public var isDatedByArrival = false

  public init(
    mode: Mode, time: Date?, coordinate: GeoCoordinate, eph: Double? = nil, epx: Double? = nil,
    epy: Double? = nil, speed: Double? = nil, course: Double? = nil, age: TimeInterval? = nil
  ) {
    self.mode = mode
    self.time = time
    self.coordinate = coordinate
    self.eph = eph
    self.epx = epx
    self.epy = epy
    self.speed = speed
    self.course = course
    self.age = age
  }

  /// The horizontal error radius in metres: `eph` when gpsd gave one, else the combined
  /// per-axis errors, else nil (no error estimate at all).
  public var horizontalAccuracy: Double? {
    if let eph, eph.isFinite, eph >= 0 { return eph }
    let x = epx.flatMap { $0.isFinite && $0 >= 0 ? $0 : nil }
    let y = epy.flatMap { $0.isFinite && $0 >= 0 ? $0 : nil }
    switch (x, y) {
    case let (x?, y?): return (x * x + y * y).squareRoot()
    case let (x?, nil): return x
    case let (nil, y?): return y
    default: return nil
    }
  }
}
