import DashPilotCore
import FoundationEssentials

/// One position report as the engine sees it. It carries its own time: the engine reads no
/// clock, so a replayed log gives the same answer as the live daemon.
public struct GuidanceFix: Sendable, Hashable, Codable {
  public var timestamp: Date
  public var coordinate: GeoCoordinate
  /// Horizontal accuracy in metres (gpsd's `eph`); worse than `maxMatchAccuracy` is not matched.
  public var accuracy: Double
  /// Speed over ground in m/s, when the receiver reports one.
  public var speed: Double?
  /// Course over ground in degrees clockwise from true north, when reported.
  public var course: Double?

  public init(
    timestamp: Date, coordinate: GeoCoordinate, accuracy: Double, speed: Double? = nil,
    course: Double? = nil
  ) {
    self.timestamp = timestamp
    self.coordinate = coordinate
    self.accuracy = accuracy
    self.speed = speed
    self.course = course
  }

  /// The reported speed when it is a speed at all (finite, not negative).
  public var usableSpeed: Double? {
    guard let speed, speed.isFinite, speed >= 0 else { return nil }
    return speed
  }

  /// The course when the same report's speed makes it trustworthy: a receiver's course comes
  /// from the same Doppler solution as its speed and is noise when that speed is low.
  public func trustedCourse(minimumSpeed: Double) -> Double? {
    guard let course, course.isFinite, let speed = usableSpeed, speed >= minimumSpeed else {
      return nil
    }
    return course
  }

  /// Whether the fix can be matched at all: a position on Earth with an accuracy that is a
  /// number no worse than `maxMatchAccuracy`.
  public func isMatchable(maxAccuracy: Double) -> Bool {
    coordinate.isValid && accuracy.isFinite && accuracy >= 0 && accuracy <= maxAccuracy
  }
}
