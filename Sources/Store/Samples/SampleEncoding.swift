import DashPilotCore
import FoundationEssentials

/// A sample in the units the samples table holds (see `Schema`), and the checks that keep
/// anything that cannot be stored faithfully out of the file with a clear reason.
struct EncodedSample {
  var fixTimeMilliseconds: Int64
  var latitudeE7: Int64
  var longitudeE7: Int64
  var horizontalAccuracyCentimetres: Int64
  var speedCentimetresPerSecond: Int64?
  var courseCentidegrees: Int64?
  var held: Bool
  var accuracyAssumed: Bool
  var datedByArrival: Bool

  /// About the year 5138 either side of 1970: beyond it is not a fix time.
  static let maximumAbsoluteSeconds: Double = 1e11
  /// A radius beyond this (a tenth of the Earth's circumference) describes no position.
  static let maximumAccuracyMetres: Double = 4_000_000
  /// Faster than any vehicle by far; the filter rejects implausible speeds long before.
  static let maximumSpeed: Double = 10_000

  init(_ sample: RouteSample) throws(StoreError) {
    let seconds = sample.timestamp.timeIntervalSince1970
    guard seconds.isFinite, abs(seconds) < Self.maximumAbsoluteSeconds else {
      throw .invalidSample("fix time \(seconds) s since 1970 is not a usable time")
    }
    guard sample.coordinate.isValid else {
      throw .invalidSample(
        "coordinate \(sample.coordinate.latitude), \(sample.coordinate.longitude) is not on Earth "
          + "(latitude must be within ±90, longitude within ±180)")
    }
    let accuracy = sample.horizontalAccuracy
    guard accuracy.isFinite, accuracy >= 0, accuracy <= Self.maximumAccuracyMetres else {
      throw .invalidSample("horizontal accuracy \(accuracy) m is not a finite, non-negative radius")
    }
    if let speed = sample.speed {
      guard speed.isFinite, speed >= 0, speed <= Self.maximumSpeed else {
        throw .invalidSample("speed \(speed) m/s is not a finite, non-negative speed")
      }
    }
    if let course = sample.course {
      guard course.isFinite else { throw .invalidSample("course \(course) is not a finite angle") }
    }
    fixTimeMilliseconds = Int64((seconds * 1000).rounded())
    latitudeE7 = Int64((sample.coordinate.latitude * 1e7).rounded())
    longitudeE7 = Int64((sample.coordinate.longitude * 1e7).rounded())
    horizontalAccuracyCentimetres = Int64((accuracy * 100).rounded())
    speedCentimetresPerSecond = sample.speed.map { Int64(($0 * 100).rounded()) }
    courseCentidegrees = sample.course.map {
      Int64((GeographicDistance.normalizedDegrees($0) * 100).rounded()) % 36_000
    }
    held = sample.isHeld
    accuracyAssumed = sample.isAccuracyAssumed
    datedByArrival = sample.isDatedByArrival
  }

  init(
    fixTimeMilliseconds: Int64, latitudeE7: Int64, longitudeE7: Int64,
    horizontalAccuracyCentimetres: Int64, speedCentimetresPerSecond: Int64?, courseCentidegrees: Int64?,
    held: Bool = false, accuracyAssumed: Bool = false, datedByArrival: Bool = false
  ) {
    self.fixTimeMilliseconds = fixTimeMilliseconds
    self.latitudeE7 = latitudeE7
    self.longitudeE7 = longitudeE7
    self.horizontalAccuracyCentimetres = horizontalAccuracyCentimetres
    self.speedCentimetresPerSecond = speedCentimetresPerSecond
    self.courseCentidegrees = courseCentidegrees
    self.held = held
    self.accuracyAssumed = accuracyAssumed
    self.datedByArrival = datedByArrival
  }

  /// The sample these columns hold.
  func routeSample(session: CaptureSessionID?) -> RouteSample {
    RouteSample(
      timestamp: Self.date(milliseconds: fixTimeMilliseconds),
      coordinate: GeoCoordinate(latitude: Double(latitudeE7) / 1e7, longitude: Double(longitudeE7) / 1e7),
      horizontalAccuracy: Double(horizontalAccuracyCentimetres) / 100,
      speed: speedCentimetresPerSecond.map { Double($0) / 100 },
      course: courseCentidegrees.map { Double($0) / 100 },
      captureSessionID: session, isHeld: held, isAccuracyAssumed: accuracyAssumed,
      isDatedByArrival: datedByArrival)
  }

  static func date(milliseconds: Int64) -> Date {
    Date(timeIntervalSince1970: Double(milliseconds) / 1000)
  }

  /// `date` in milliseconds since 1970; `role` names it in the error ("shift start").
  static func milliseconds(_ date: Date, role: String) throws(StoreError) -> Int64 {
    let seconds = date.timeIntervalSince1970
    guard seconds.isFinite, abs(seconds) < maximumAbsoluteSeconds else {
      throw .invalidTime("\(role) \(seconds) s since 1970 is not a usable time")
    }
    return Int64((seconds * 1000).rounded())
  }
}
