import FoundationEssentials

extension RouteSampleFilter {
  /// The per-fix gates: a fix, a position and time on Earth, an error estimate (or the
  /// assumed one) within the limit, not stale, not dated ahead. Accepted here means only
  /// that the fix is worth judging.
  mutating func admit(_ fix: FixCandidate, session: CaptureSessionID?) -> Admission {
    guard fix.mode.hasFix else { return .refused(.noFix) }
    guard let time = fix.time, time.timeIntervalSince1970.isFinite, fix.coordinate.isValid else {
      return .refused(.invalidCoordinate)
    }
    let accuracy: Double
    let assumed: Bool
    let mayAssume = errorEstimates.note(time: time, hasEstimate: fix.horizontalAccuracy != nil)
    if let reported = fix.horizontalAccuracy {
      (accuracy, assumed) = (reported, false)
    } else if let assumedAccuracy = configuration.assumedAccuracy, mayAssume {
      (accuracy, assumed) = (assumedAccuracy, true)
    } else {
      return .refused(.noAccuracyEstimate)
    }
    guard accuracy <= configuration.maximumHorizontalAccuracy else { return .refused(.poorAccuracy) }
    if let age = fix.age, age > configuration.maximumAge { return .refused(.stale) }
    // A fix dated ahead of what the receiver's recent fixes allow is a wrong date, not a
    // fresh fix: kept, it would make every true fix after it look out of order.
    if let age = fix.age, age < -configuration.maximumAge { return .refused(.futureTime) }
    return .admitted(
      RouteSample(
        timestamp: time, coordinate: fix.coordinate, horizontalAccuracy: accuracy,
        speed: fix.speed.flatMap { $0.isFinite && $0 >= 0 ? $0 : nil },
        course: fix.course.flatMap { $0.isFinite ? GeographicDistance.normalizedDegrees($0) : nil },
        captureSessionID: session, isAccuracyAssumed: assumed, isDatedByArrival: fix.isDatedByArrival))
  }

  enum Admission {
    case admitted(RouteSample)
    case refused(SampleRejection)
  }
}
