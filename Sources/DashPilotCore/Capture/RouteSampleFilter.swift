import FoundationEssentials

/// The capture rules, applied once, when a fix arrives. The calculator never re-judges.
///
/// Besides the per-fix gates (fix, coordinate, accuracy, age, order), the filter decides
/// what a fix says about movement, judged against the last retained sample (the
/// reference) and against the receiver's own recent fixes (`MotionEvidence`):
/// - an outlier (an implausible speed from the reference or from the previous fix) is
///   rejected, and a streak of outliers that agree with each other is believed;
/// - a fix within the receiver's own noise of the reference, reported standing still, or
///   further from it than the receiver's reported speeds can explain, is not a move: it is
///   rejected, except that once a minute it is kept as a held sample (`RouteSample.isHeld`),
///   which shows capture went on and adds no distance;
/// - anything else is a move, kept and measured.
public struct RouteSampleFilter: Sendable {
  public typealias Configuration = RouteSampleFilterConfiguration

  public enum Verdict: Sendable, Hashable {
    case accepted(RouteSample)
    case rejected(SampleRejection)
  }

  public var configuration: Configuration
  /// The last sample retained for the shift (any session): the reference.
  public private(set) var lastRetained: RouteSample?
  /// Outliers in a row that agree with each other, newest last.
  private var implausibleStreak: [RouteSample] = []
  private var motion = MotionEvidence()
  /// Distance the receiver's speeds covered within the current moving stretch that kept
  /// moves did not use up (a chord is shorter than the bend it cuts). A move may use it, so
  /// that over a stretch the kept moves never add up to more than the speeds: noise zigzags
  /// a slow track, and each zig would otherwise add its own few metres.
  private var speedCredit: Double
  /// The last fix judged still (and agreeing with the one before it) since the reference,
  /// and why it was refused then.
  private var lastStill: (sample: RouteSample, reason: SampleRejection)?
  private var errorEstimates = ErrorEstimateEvidence()
  /// The session the last fix judged belonged to.
  private var judgedSession: CaptureSessionID?

  public init(configuration: Configuration = .init(), lastRetained: RouteSample? = nil) {
    self.configuration = configuration
    self.lastRetained = lastRetained
    speedCredit = configuration.speedEvidenceMargin
    motion.reset(retained: lastRetained)
  }

  /// Starts judging against `sample` (the store's last row of the shift, or nil for a new
  /// shift). Called when a shift starts and when a save failed, so that the filter never
  /// compares against a sample that was not kept.
  public mutating func reset(lastRetained sample: RouteSample?) {
    lastRetained = sample
    implausibleStreak = []
    speedCredit = configuration.speedEvidenceMargin
    lastStill = nil
    motion.reset(retained: sample)
  }

  /// Judges `fix` for the capture session `session`; an accepted fix becomes the last
  /// retained sample.
  public mutating func judge(_ fix: FixCandidate, session: CaptureSessionID?) -> Verdict {
    if session != judgedSession {
      judgedSession = session
      errorEstimates.reset()
    }
    let candidate: RouteSample
    switch admit(fix, session: session) {
    case .rejected(let reason): return .rejected(reason)
    case .accepted(let admitted): candidate = admitted
    }
    guard let last = lastRetained else { return accept(candidate) }
    guard candidate.timestamp > last.timestamp else { return .rejected(.outOfOrder) }
    // The first fix of a new session is kept wherever it is: it anchors the session, and
    // the measurement sees a gap before it anyway.
    guard last.captureSessionID == session else {
      speedCredit = configuration.speedEvidenceMargin
      return accept(candidate)
    }

    let distance = GeographicDistance.metres(from: last.coordinate, to: candidate.coordinate)
    let interval = candidate.timestamp.timeIntervalSince(last.timestamp)
    let continuous = interval <= configuration.maximumSampleInterval
    if continuous, distance / interval > configuration.maximumImpliedSpeed {
      if trustsStreak(ending: candidate) { return accept(candidate) }
      return .rejected(.implausibleSpeed)
    }
    // A lone fix far from the one just before it (a signal bounced off a building) is an
    // outlier however near the reference it is, and must not become the reference.
    if motion.isJump(to: candidate, configuration: configuration) {
      if !trustsStreak(ending: candidate) { return .rejected(.implausibleSpeed) }
    }
    implausibleStreak = []

    let previous = motion.lastSeen
    let speedIntegral = motion.integral(through: candidate)
    motion.saw(candidate)
    if let stillness = stillness(
      of: candidate, distance: distance, interval: interval, previous: previous, speedIntegral: speedIntegral)
    {
      if agreesWithPrevious(candidate, previous) {
        if candidate.timestamp.timeIntervalSince(last.timestamp) >= configuration.heldSampleInterval {
          var held = candidate
          held.isHeld = true
          speedCredit = configuration.speedEvidenceMargin
          return accept(held)
        }
        lastStill = (candidate, stillness)
      }
      return .rejected(stillness)
    }
    if let speedIntegral, !speedsAreBroken(distance: distance, speedIntegral: speedIntegral, candidate: candidate) {
      speedCredit = max(0, speedCredit + speedIntegral - distance)
    } else {
      speedCredit = configuration.speedEvidenceMargin
    }
    return accept(candidate)
  }

  /// Whether the positions are believed over the speeds: they moved several times their
  /// error estimates (see `speedEvidenceErrorMultiple`) while the speeds account for under a
  /// quarter of it. A receiver whose speed output is wrong; a settling cold start or a
  /// noisy track never gets that far ahead of its speeds.
  private func speedsAreBroken(distance: Double, speedIntegral: Double, candidate: RouteSample) -> Bool {
    let error = max(candidate.horizontalAccuracy, lastRetained?.horizontalAccuracy ?? 0)
    return distance > configuration.speedEvidenceErrorMultiple * error
  }

  /// The per-fix gates: a fix, a position and time on Earth, an error estimate (or the
  /// assumed one) within the limit, not stale, not dated ahead. Accepted here means only
  /// that the fix is worth judging.
  private mutating func admit(_ fix: FixCandidate, session: CaptureSessionID?) -> Verdict {
    guard fix.mode.hasFix else { return .rejected(.noFix) }
    guard let time = fix.time, time.timeIntervalSince1970.isFinite, fix.coordinate.isValid else {
      return .rejected(.invalidCoordinate)
    }
    let accuracy: Double
    let assumed: Bool
    let mayAssume = errorEstimates.note(time: time, hasEstimate: fix.horizontalAccuracy != nil)
    if let reported = fix.horizontalAccuracy {
      (accuracy, assumed) = (reported, false)
    } else if let assumedAccuracy = configuration.assumedAccuracy, mayAssume {
      (accuracy, assumed) = (assumedAccuracy, true)
    } else {
      return .rejected(.noAccuracyEstimate)
    }
    guard accuracy <= configuration.maximumHorizontalAccuracy else { return .rejected(.poorAccuracy) }
    if let age = fix.age, age > configuration.maximumAge { return .rejected(.stale) }
    // A fix dated ahead of what the receiver's recent fixes allow is a wrong date, not a
    // fresh fix: kept, it would make every true fix after it look out of order.
    if let age = fix.age, age < -configuration.maximumAge { return .rejected(.futureTime) }
    return .accepted(
      RouteSample(
        timestamp: time, coordinate: fix.coordinate, horizontalAccuracy: accuracy,
        speed: fix.speed.flatMap { $0.isFinite && $0 >= 0 ? $0 : nil },
        course: fix.course.flatMap { $0.isFinite ? GeographicDistance.normalizedDegrees($0) : nil },
        captureSessionID: session, isAccuracyAssumed: assumed))
  }

  /// Why `candidate`, `distance` metres from the reference, is not a move; nil when it is.
  private func stillness(
    of candidate: RouteSample, distance: Double, interval: TimeInterval, previous: RouteSample?,
    speedIntegral: Double?
  ) -> SampleRejection? {
    if distance < configuration.minimumMovement { return .negligibleMovement }
    // A parked receiver's position wanders by more than `minimumMovement`; while it says
    // it stands still, a move within its current error is that wander. The current error
    // is this fix's and the previous one's: an old reference's poor claim must not hold a
    // slowly moving vehicle still once the fixes are good.
    if isStandingStill(candidate, distance: distance, interval: interval) {
      let currentError = max(candidate.horizontalAccuracy, previous?.horizontalAccuracy ?? 0)
      if distance < configuration.stationaryErrorFraction * currentError { return .negligibleMovement }
    }
    // Further than the receiver's own speeds carried it, but within a few times the error
    // estimates: the position estimate moved (a cold start settling, multipath), not the
    // vehicle. Beyond that the positions are believed over the speeds (a receiver whose
    // speed output is wrong).
    if let speedIntegral, distance > speedIntegral + speedCredit,
      !speedsAreBroken(distance: distance, speedIntegral: speedIntegral, candidate: candidate)
    {
      return .unconfirmedMovement
    }
    return nil
  }

  /// Whether the fix says the receiver is still: its reported speed, or when it reports
  /// none, the speed implied since the last retained sample.
  private func isStandingStill(_ candidate: RouteSample, distance: Double, interval: TimeInterval) -> Bool {
    if let speed = candidate.speed { return speed < configuration.stationarySpeed }
    return distance / interval < configuration.stationarySpeed
  }

  /// A fix that is not a move is kept as a held sample once `heldSampleInterval` has
  /// passed since the reference, so that a parked vehicle's stretch stays unbroken; only
  /// one that agrees with the fix before it, so that one bad fix never becomes the
  /// position the next move is measured from.
  private func agreesWithPrevious(_ candidate: RouteSample, _ previous: RouteSample?) -> Bool {
    guard let previous else { return true }
    let apart = GeographicDistance.metres(from: previous.coordinate, to: candidate.coordinate)
    let interval = candidate.timestamp.timeIntervalSince(previous.timestamp)
    let carried = max(candidate.speed ?? 0, previous.speed ?? 0) * interval
    return apart
      <= carried + configuration.stationaryErrorFraction
      * max(candidate.horizontalAccuracy, previous.horizontalAccuracy)
  }

  /// Capture of the session is ending (the shift ends, the receiver went away, the log
  /// ended): the last fix that stood still since the last retained sample is kept as a
  /// held sample, so that the stretch reaches as far as capture did; with the reason it
  /// was refused for when it was judged. Nil when there is none.
  public mutating func closingHeldSample() -> (sample: RouteSample, wasRefusedAs: SampleRejection)? {
    guard let (candidate, reason) = lastStill, let last = lastRetained, candidate.timestamp > last.timestamp,
      candidate.captureSessionID == last.captureSessionID
    else { return nil }
    var held = candidate
    held.isHeld = true
    _ = accept(held)
    return (held, reason)
  }

  private mutating func accept(_ sample: RouteSample) -> Verdict {
    lastStill = nil
    lastRetained = sample
    implausibleStreak = []
    motion.reset(retained: sample)
    return .accepted(sample)
  }

  /// Records an implausible candidate; true when enough of them in a row agree with each
  /// other that the last retained sample, not they, must be the outlier.
  private mutating func trustsStreak(ending candidate: RouteSample) -> Bool {
    if let previous = implausibleStreak.last {
      let d = GeographicDistance.metres(from: previous.coordinate, to: candidate.coordinate)
      let t = candidate.timestamp.timeIntervalSince(previous.timestamp)
      let agrees =
        previous.captureSessionID == candidate.captureSessionID && t > 0
        && d / t <= configuration.maximumImpliedSpeed
      if !agrees { implausibleStreak = [] }
    }
    implausibleStreak.append(candidate)
    return implausibleStreak.count >= configuration.implausibleStreakToTrust
  }
}
