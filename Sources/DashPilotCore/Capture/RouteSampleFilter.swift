import FoundationEssentials

/// The capture rules, applied once, when a fix arrives. The calculator never re-judges.
///
/// Besides the per-fix gates (fix, coordinate, accuracy, age, order: see `admit`), the
/// filter decides what a fix says about movement, judged against the last retained sample
/// (the reference) and against the receiver's own recent fixes (`MotionEvidence`):
/// - an outlier (an implausible speed from the reference or from the previous fix) is
///   rejected; a streak of them that agree with each other is believed as a position, but
///   the jump to it is never a move;
/// - a change between 2D and 3D is the receiver solving afresh: the step across it is
///   neither an outlier nor movement;
/// - a fix within the receiver's own noise of the reference while it reports standing
///   still (unless its positions follow its speeds and courses out of that noise: a
///   walker), or further from the reference than the receiver's reported speeds carried it
///   (unless the positions since agree with each other, step after step, and with the
///   receiver's courses: speeds that are wrong), is not a move: it is rejected, except that once a minute (or at once, for a
///   re-solution) it is kept as a held sample (`RouteSample.isHeld`), which shows capture
///   went on and adds no distance; without speeds (GGA only), a move must clear its ends'
///   error estimates, since nothing else caps what noise adds;
/// - anything else is a move, kept and measured. Over a stretch, the kept moves add up to
///   no more than the speeds carried, plus a small margin and what the fixes' own scatter
///   allows one move to overdraw: the figure is a floor.
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
  private var lastStill: (sample: RouteSample, reason: SampleRejection, mode: FixCandidate.Mode)?
  /// Whether the receiver reports error estimates at all (see `admit`).
  var errorEstimates = ErrorEstimateEvidence()
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
    case .refused(let reason): return .rejected(reason)
    case .admitted(let admitted): candidate = admitted
    }
    guard let last = lastRetained else { return accept(candidate, mode: fix.mode) }
    guard candidate.timestamp > last.timestamp else { return .rejected(.outOfOrder) }
    // The first fix of a new session is kept wherever it is: it anchors the session, and
    // the measurement sees a gap before it anyway.
    guard last.captureSessionID == session else {
      speedCredit = configuration.speedEvidenceMargin
      return accept(candidate, mode: fix.mode)
    }

    let distance = GeographicDistance.metres(from: last.coordinate, to: candidate.coordinate)
    let interval = candidate.timestamp.timeIntervalSince(last.timestamp)
    // Beyond `maximumSampleInterval` the measurement sees a gap, whether the session went
    // on (a receiver that fell silent) or a new one began (one gpsd saw unplugged): the
    // stretch before it neither owes the next what it overdrew nor lends it unused speed
    // distance, and the step across it, unmeasured, is no evidence of either. So the fixes
    // after a silence are judged alike however it was reported; carried over, the debt of
    // an unmeasured chord held every fix after it back to one kept in four seconds.
    let continuous = interval <= configuration.maximumSampleInterval
    if !continuous { speedCredit = configuration.speedEvidenceMargin }
    // A change between 2D and 3D is the receiver solving afresh: the step to it is its
    // position estimate moving, neither an outlier nor movement.
    let reresolved = motion.isModeChange(to: fix.mode)
    if continuous, distance / interval > configuration.maximumImpliedSpeed {
      guard trustsStreak(ending: candidate) else { return .rejected(.implausibleSpeed) }
      // Fixes that agree with each other keep saying the reference is the outlier (a wrong
      // first fix): they are where the vehicle is, but the jump to them is not a move.
      return keepHeld(candidate, mode: fix.mode)
    }
    // A lone fix far from the one just before it (a signal bounced off a building) is an
    // outlier however near the reference it is, and must not become the reference. Once
    // a few agree, they are judged like any fix.
    if !reresolved, motion.isJump(to: candidate, configuration: configuration) {
      guard trustsStreak(ending: candidate) else { return .rejected(.implausibleSpeed) }
    }
    implausibleStreak = []

    let previous = motion.lastSeen
    motion.saw(candidate, mode: fix.mode, configuration: configuration)
    let claimed = configuration.speedEvidenceErrorFraction * max(candidate.horizontalAccuracy, last.horizontalAccuracy)
    let carried = motion.speedIntegral
    let evidence = Evidence(
      distance: distance, interval: interval, carried: carried,
      error: max(candidate.horizontalAccuracy, previous?.horizontalAccuracy ?? 0),
      chordError: max(candidate.horizontalAccuracy, last.horizontalAccuracy),
      overdraft: overdraft(claimed: claimed, carried: carried ?? 0))
    if continuous, let carried, (candidate.speed ?? 0) >= configuration.standingSpeedNoise {
      motion.noteScatter(
        distance: distance, carried: carried, limit: claimed, weight: configuration.scatterWeight)
    }
    let stillness = stillness(of: candidate, evidence)
    if let stillness {
      // A re-solution the speeds do not carry: the new solution is where the vehicle is
      // measured from next, without the jump to it; refused, every fix after it would be
      // as far off the speeds until the held sample a minute later.
      if reresolved, stillness == .unconfirmedMovement { return keepHeld(candidate, mode: fix.mode) }
      if agreesWithPrevious(candidate, previous) {
        if interval >= configuration.heldSampleInterval {
          // As far as the speeds carried it in that minute, or a walk its reference's error
          // kept out: a move, what it took beyond the speeds owed. Held, the minute was
          // dropped (420 m of a logger's car loop that earlier moves' debt refused; a phone's
          // walk in a street canyon, 80-130 m a time).
          if stillness == .unconfirmedMovement, let carried,
            distance <= carried || isWalkBeyondReferenceError(candidate, evidence)
          {
            speedCredit += carried - distance
            return accept(candidate, mode: fix.mode)
          }
          return keepHeld(candidate, mode: fix.mode)
        }
        lastStill = (candidate, stillness, fix.mode)
      }
      return .rejected(stillness)
    }
    if continuous, let carried {
      // What the move took beyond the speeds, later moves repay (a chord is shorter than
      // its bend, a lagging speed catches up). Only positions beyond the speeds by more
      // than their error explains, or by more than the agreement tolerance of the move
      // (speeds that are wrong, believed on sustained agreement), owe no more than one
      // overdraft: a run of positions that agree while a few metres or per cent ahead of
      // the speeds (noise on every step, a speed that lags) stays owed, so that over a
      // stretch the figure never runs ahead of the speeds by more than the fixes' error.
      let owed = speedCredit + carried - distance
      let outrun = distance - carried
      let speedsAreWrong =
        outrun >= configuration.stationaryErrorFraction * evidence.error
        || outrun > configuration.agreementTolerance * distance
      speedCredit = speedsAreWrong ? max(owed, -evidence.overdraft) : owed
    } else {
      speedCredit = configuration.speedEvidenceMargin
    }
    return accept(candidate, mode: fix.mode)
  }

  /// What a candidate is judged on: its `distance` from the reference and the `interval`
  /// since it, the current `error` (this fix's and the previous one's estimates), the
  /// `chordError` of the move's two ends (this fix's and the reference's), and how far
  /// beyond the speeds a move may overdraw.
  private struct Evidence {
    var distance: Double
    var interval: TimeInterval
    /// How far the receiver's speeds carried it (nil without speeds).
    var carried: Double?
    var error: Double
    var chordError: Double
    var overdraft: Double
  }

  /// Why `candidate` is not a move; nil when it is.
  private func stillness(of candidate: RouteSample, _ evidence: Evidence) -> SampleRejection? {
    if evidence.distance < configuration.minimumMovement { return .negligibleMovement }
    // Without speeds (`unspeededMoveErrorFraction`) a move must clear its ends' error.
    if evidence.carried == nil,
      evidence.distance < configuration.unspeededMoveErrorFraction * evidence.chordError
    {
      return .negligibleMovement
    }
    // A parked receiver's position wanders by more than `minimumMovement`; while it says
    // it stands still, a move within its current error is that wander. The current error
    // is this fix's and the previous one's: an old reference's poor claim must not hold a
    // slowly moving vehicle still once the fixes are good. A walker reports speeds a
    // parked receiver's noise reaches too: it moves once its positions follow its speeds
    // and courses beyond the error.
    if isStandingStill(candidate, distance: evidence.distance, interval: evidence.interval),
      evidence.distance < configuration.stationaryErrorFraction * evidence.error,
      !motion.movedAsVelocitySays(candidate, error: evidence.error, tolerance: configuration.agreementTolerance)
    {
      return .negligibleMovement
    }
    // Further than the receiver's own speeds carried it: the position estimate moved (a
    // cold start settling, multipath, noise), not the vehicle, unless the positions since
    // the reference agree with each other all along (speeds that are wrong). Beyond
    // `maximumSampleInterval` the measurement sees a gap anyway: the rule must not lock
    // capture out there.
    if evidence.interval <= configuration.maximumSampleInterval, let carried = evidence.carried,
      evidence.distance > carried + speedCredit + evidence.overdraft,
      !motion.run.isSustained(
        displacement: evidence.distance, error: evidence.error, configuration: configuration)
    {
      return .unconfirmedMovement
    }
    return nil
  }

  /// Whether `candidate`, refused for a minute as beyond the speeds, is a walk (or a creep)
  /// that its reference's error put there: the receiver moves (`standingSpeedNoise`) at
  /// a walking pace (`speedNoiseMaximumSpeed`), its speeds carried it at least its two ends'
  /// error, and it lies within `stationaryErrorFraction` of that error of where they put it.
  /// A reference a few metres behind the walker puts every fix after it that far beyond the
  /// speeds; held, the minute walked was dropped (a phone in a street canyon lost 80-130 m
  /// a time). Kept as a move, its excess is owed like any overdraft, and a held sample that
  /// stands settles it.
  private func isWalkBeyondReferenceError(_ candidate: RouteSample, _ evidence: Evidence) -> Bool {
    guard let carried = evidence.carried, (candidate.speed ?? 0) >= configuration.standingSpeedNoise,
      carried < configuration.speedNoiseMaximumSpeed * evidence.interval, carried >= evidence.chordError
    else { return false }
    return evidence.distance
      <= carried + speedCredit + configuration.stationaryErrorFraction * evidence.chordError
  }

  /// Whether the fix says the receiver is still: its reported speed, or when it reports
  /// none, the speed implied since the last retained sample.
  private func isStandingStill(_ candidate: RouteSample, distance: Double, interval: TimeInterval) -> Bool {
    if let speed = MotionEvidence.receiverSpeed(candidate, configuration: configuration) {
      return speed < configuration.stationarySpeed
    }
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
    guard let (candidate, reason, mode) = lastStill, let last = lastRetained, candidate.timestamp > last.timestamp,
      candidate.captureSessionID == last.captureSessionID
    else { return nil }
    guard case .accepted(let held) = keepHeld(candidate, mode: mode) else { return nil }
    return (held, reason)
  }

  private mutating func accept(_ sample: RouteSample, mode: FixCandidate.Mode) -> Verdict {
    lastStill = nil
    lastRetained = sample
    implausibleStreak = []
    motion.reset(retained: sample, mode: mode)
    return .accepted(sample)
  }

  /// How far a move may overdraw the speeds: `scatterMultiple` times the scatter of the
  /// receiver's moving fixes about its speeds, or `overdraftFraction` of what the speeds
  /// `carried` if more, never more than `claimed` (a fraction of the error estimates); none
  /// before a moving fix has shown the scatter.
  private func overdraft(claimed: Double, carried: Double) -> Double {
    guard let scatter = motion.scatter else { return 0 }
    return min(max(configuration.scatterMultiple * scatter, configuration.overdraftFraction * carried), claimed)
  }

  /// Keeps `candidate` as a held sample: the vehicle is there, but the move to it adds no
  /// distance. What earlier moves overdrew, the distance the speeds carried to it and not
  /// measured repays; unused speed distance beyond the once-a-stretch margin does not
  /// survive it. Owed beyond that, a moving receiver would be refused from one held sample
  /// to the next, each dropping a minute of what it moved. A receiver that says it stands
  /// (a speed under its noise) has the vehicle where it stopped: what the drive before
  /// overdrew ends there, as the drive does. Carried over a stop, the debt refused every
  /// move of the next drive off until its speeds had repaid it (a car leaving a two-minute
  /// halt was held still for 18 s, and its later creep across a car park became a stop).
  /// Forgiven any sooner, on every move its speeds account for, it is never repaid: a
  /// noisy logger's zigzag, which refused moves cut to chords, rose 2.7 % above its speeds.
  private mutating func keepHeld(_ candidate: RouteSample, mode: FixCandidate.Mode) -> Verdict {
    var held = candidate
    held.isHeld = true
    let stands = (candidate.speed ?? .infinity) < configuration.standingSpeedNoise
    let repaid = speedCredit + (motion.speedIntegral ?? 0)
    speedCredit = stands ? configuration.speedEvidenceMargin : min(repaid, configuration.speedEvidenceMargin)
    return accept(held, mode: mode)
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
