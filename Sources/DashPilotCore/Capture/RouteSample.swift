import FoundationEssentials

/// One retained position of a shift's route.
public struct RouteSample: Sendable, Hashable {
  public var timestamp: Date
  public var coordinate: GeoCoordinate
  /// Horizontal error radius in metres.
  public var horizontalAccuracy: Double
  /// Ground speed in m/s, when the receiver reported one.
  public var speed: Double?
  /// Course over ground in degrees from true north, when reported.
  public var course: Double?
  /// The capture session that recorded it; nil for a track imported from another logger.
  public var captureSessionID: CaptureSessionID?
  /// A held sample: kept while the vehicle stood still, as evidence that capture went on
  /// (a parked car is not a capture gap). The move to it is the receiver's wander, not
  /// driving, so it adds no distance; the next position is measured from it.
  public var isHeld: Bool
  /// Whether `horizontalAccuracy` was assumed because the receiver reported no error
  /// estimate (`RouteSampleFilter.Configuration.assumedAccuracy`).
  public var isAccuracyAssumed: Bool
  /// Whether `timestamp` is when the fix arrived, not the receiver's: it came with no date
  /// (a receiver that sends GGA only) and was dated by a synchronised wall clock
  /// (`ArrivalDating`).
  public var isDatedByArrival: Bool

  public init(
    timestamp: Date, coordinate: GeoCoordinate, horizontalAccuracy: Double,
    speed: Double? = nil, course: Double? = nil, captureSessionID: CaptureSessionID?,
    isHeld: Bool = false, isAccuracyAssumed: Bool = false,
    isDatedByArrival: Bool = false
  ) {
    self.timestamp = timestamp
    self.coordinate = coordinate
    self.horizontalAccuracy = horizontalAccuracy
    self.speed = speed
    self.course = course
    self.captureSessionID = captureSessionID
    self.isHeld = isHeld
    self.isAccuracyAssumed = isAccuracyAssumed
    self.isDatedByArrival = isDatedByArrival
  }
}
