import FoundationEssentials

/// What the receiver's own fixes say about movement since the last retained sample: the
/// previous fix seen (kept or not) and the distance its reported speeds integrate to.
/// Positions wander by metres and jump by hundreds when a signal bounces; the Doppler
/// speed a receiver reports is far steadier, so it is the cross-check on how far a
/// position may have moved. Pure: time comes from the fixes.
struct MotionEvidence: Sendable, Hashable {
  /// The previous fix judged in this session (not rejected as an outlier).
  private(set) var lastSeen: RouteSample?
  /// Metres the reported speeds integrate to since the last retained sample (trapezoids
  /// between consecutive fixes); nil when some fix on the way reported no speed. Across a
  /// stretch without fixes (a tunnel) the trapezoid is the estimate: a vehicle that stopped
  /// and drove off unseen is under-counted, never over-counted, which keeps the figure a
  /// floor.
  private(set) var speedIntegral: Double? = 0

  /// Starts again from `sample`, the new last retained sample (or nothing).
  mutating func reset(retained sample: RouteSample?) {
    lastSeen = sample
    speedIntegral = 0
  }

  /// Whether `candidate` is too far from the previous fix seen to be the same receiver
  /// moving: faster than any vehicle, or, when both report a speed, further than those
  /// speeds carry it plus both error radii twice over (a signal that bounced, which claims
  /// a good accuracy and a standing-still speed while sitting hundreds of metres away).
  func isJump(to candidate: RouteSample, configuration: RouteSampleFilterConfiguration) -> Bool {
    guard let lastSeen, lastSeen.captureSessionID == candidate.captureSessionID else { return false }
    let interval = candidate.timestamp.timeIntervalSince(lastSeen.timestamp)
    guard interval > 0, interval <= configuration.maximumSampleInterval else { return false }
    let apart = GeographicDistance.metres(from: lastSeen.coordinate, to: candidate.coordinate)
    if apart / interval > configuration.maximumImpliedSpeed { return true }
    guard let before = lastSeen.speed, let after = candidate.speed else { return false }
    let carried = max(before, after) * interval
    let noise = configuration.stationaryErrorFraction * (lastSeen.horizontalAccuracy + candidate.horizontalAccuracy)
    return apart > carried + noise + configuration.speedEvidenceMargin
  }

  /// What the integral would be once `candidate` is seen.
  func integral(through candidate: RouteSample) -> Double? {
    guard let integral = speedIntegral else { return nil }
    guard let lastSeen else { return integral }
    let interval = candidate.timestamp.timeIntervalSince(lastSeen.timestamp)
    // gpsd reports one fix several times, once per sentence of the cycle.
    guard interval > 0 else { return integral }
    guard let before = lastSeen.speed, let after = candidate.speed else { return nil }
    return integral + interval * (before + after) / 2
  }

  /// `candidate` was judged (kept or not, but not an outlier): it is the previous fix for
  /// the next one.
  mutating func saw(_ candidate: RouteSample) {
    speedIntegral = integral(through: candidate)
    lastSeen = candidate
  }
}
