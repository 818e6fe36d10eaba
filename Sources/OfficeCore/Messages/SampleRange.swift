/// The ranges a position must lie in to be stored: on Earth, with a finite error radius,
/// speed and course. The box's filter judged the fix long before; these only keep a value
/// PostGIS or a reader could not take out of the tables.
enum SampleRange {
  static func isOnEarth(latitude: Double, longitude: Double) -> Bool {
    latitude.isFinite && longitude.isFinite && abs(latitude) <= 90 && abs(longitude) <= 180
  }

  /// The sample with its capture session resolved: its own when it carries one (null: none),
  /// else the batch's.
  static func checked(
    _ sample: BoxPayload.WireSample, index: Int, batchSession: String?
  ) throws(Rejection) -> BoxMessage.Sample {
    guard isOnEarth(latitude: sample.lat, longitude: sample.lon) else {
      throw Rejection(.malformed, "samples[\(index)] at \(sample.lat),\(sample.lon) is not on Earth")
    }
    guard sample.accuracy.isFinite, sample.accuracy >= 0 else {
      throw Rejection(.malformed, "samples[\(index)].accuracy \(sample.accuracy) is not a radius in metres")
    }
    for (name, value) in [("speed", sample.speed), ("course", sample.course)] {
      if let value, !value.isFinite { throw Rejection(.malformed, "samples[\(index)].\(name) is not finite") }
    }
    let session: String? =
      switch sample.captureSession {
      case .some(let own): own
      case .none: batchSession
      }
    return BoxMessage.Sample(
      time: sample.time, latitude: sample.lat, longitude: sample.lon, accuracy: sample.accuracy, speed: sample.speed,
      course: sample.course, isHeld: sample.held ?? false, isAccuracyAssumed: sample.accuracyAssumed ?? false,
      isDatedByArrival: sample.datedByArrival ?? false, captureSession: session)
  }
}
