import FoundationEssentials

/// What the receiver's own fixes say about movement since the last retained sample (the
/// reference): the previous fix seen (kept or not), its fix mode, the distance and the
/// displacement its reported speeds and courses integrate to, and whether the positions
/// since move together (`PositionRun`). Positions wander by metres and jump by hundreds
/// when a signal bounces; the Doppler speed a receiver reports is far steadier, so it is
/// the cross-check on how far a position may have moved. Pure: time comes from the fixes.
struct MotionEvidence: Sendable, Hashable {
  /// The previous fix judged in this session (not rejected as an outlier), and its mode.
  private(set) var lastSeen: RouteSample?
  private var lastSeenMode: FixCandidate.Mode?
  /// Metres the reported speeds integrate to since the reference (trapezoids between
  /// consecutive fixes); nil when some fix on the way reported no speed. A speed under
  /// `standingSpeedNoise` is a standing receiver's noise and counts as none. Across a
  /// stretch without fixes (a tunnel) the trapezoid is the estimate: a vehicle that stopped
  /// and drove off unseen is under-counted, never over-counted, which keeps the figure a
  /// floor.
  private(set) var speedIntegral: Double? = 0
  /// The same integral taken along the reported courses: metres east and north the
  /// receiver says it went; nil when some moving fix reported no course.
  private var velocityIntegral: FlatPoint? = FlatPoint(x: 0, y: 0)
  private(set) var run = PositionRun()
  /// How far the receiver's fixes typically lie from where its speeds put them, measured
  /// from the reference (metres, a running mean; see `noteScatter`): the noise its
  /// positions really have, which a claimed 95 % radius overstates several times. Kept
  /// across references: it is the receiver's, not the stretch's.
  private(set) var scatter: Double?
  /// What each step's speeds carried (`SpeedDistance`).
  private var speeds = SpeedDistance()

  /// Notes that a fix `distance` metres from the reference came where the speeds carried
  /// it `carried` metres: their difference, clipped at `limit`, joins the running mean.
  mutating func noteScatter(distance: Double, carried: Double, limit: Double, weight: Double) {
    let residual = min(abs(distance - carried), limit)
    scatter = scatter.map { $0 + weight * (residual - $0) } ?? residual
  }

  /// Starts again from `sample`, the new reference (or nothing), whose fix mode was `mode`.
  mutating func reset(retained sample: RouteSample?, mode: FixCandidate.Mode? = nil) {
    if sample == nil { scatter = nil }
    // The reference is the fix just seen, unless the filter starts afresh from a stored one.
    if sample?.timestamp != lastSeen?.timestamp || sample?.captureSessionID != lastSeen?.captureSessionID {
      speeds.reset(keepingReceiver: sample != nil)
    }
    lastSeen = sample
    lastSeenMode = sample == nil ? nil : mode
    speedIntegral = 0
    velocityIntegral = FlatPoint(x: 0, y: 0)
    run.reset(at: sample)
  }

  /// Whether a fix in `mode` is a re-solution: the receiver changed between 2D and 3D since
  /// the previous fix, so the step between them is its position estimate moving.
  func isModeChange(to mode: FixCandidate.Mode) -> Bool {
    guard let lastSeenMode, lastSeenMode.hasFix, mode.hasFix else { return false }
    return mode != lastSeenMode
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

  /// `candidate`, in `mode`, was judged (kept or not, but not an outlier): it is the
  /// previous fix for the next one. A mode change ends the run of agreeing positions.
  mutating func saw(
    _ candidate: RouteSample, mode: FixCandidate.Mode, configuration: RouteSampleFilterConfiguration
  ) {
    if isModeChange(to: mode) { run.breakOff() }
    defer {
      lastSeen = candidate
      lastSeenMode = mode
    }
    guard let lastSeen else { return }
    let interval = candidate.timestamp.timeIntervalSince(lastSeen.timestamp)
    // gpsd reports one fix several times, once per sentence of the cycle.
    guard interval > 0 else { return }
    let noise = configuration.standingSpeedNoise
    let wander = configuration.stationaryErrorFraction * max(lastSeen.horizontalAccuracy, candidate.horizontalAccuracy)
    let movesOff = (lastSeen.speed ?? 0) < noise && (candidate.speed ?? 0) >= noise && !isModeChange(to: mode)
    if !movesOff || !run.moveOff(at: candidate, within: wander) {
      run.add(candidate, tolerance: configuration.agreementTolerance, noise: configuration.stationarySpeed)
    }
    // A fix without a speed of the receiver's own takes its neighbour's for the step.
    let own = (
      before: Self.receiverSpeed(lastSeen, configuration: configuration),
      after: Self.receiverSpeed(candidate, configuration: configuration)
    )
    guard let before = own.before ?? own.after, let after = own.after ?? own.before else {
      speeds.reset(keepingReceiver: true)
      speedIntegral = nil
      velocityIntegral = nil
      return
    }
    let courses = (
      before: own.before == nil ? candidate.course : lastSeen.course,
      after: own.after == nil ? lastSeen.course : candidate.course
    )
    let carried = speeds.step(
      interval: interval, before: (before, courses.before), after: (after, courses.after),
      reported: own.after == nil ? nil : candidate.speed, time: candidate.timestamp, configuration: configuration)
    speedIntegral = speedIntegral.map { $0 + carried }

    guard let integral = velocityIntegral, let a = Self.velocity(before, courses.before),
      let b = Self.velocity(after, courses.after)
    else {
      velocityIntegral = nil
      return
    }
    velocityIntegral = FlatPoint(x: integral.x + interval * (a.x + b.x) / 2, y: integral.y + interval * (a.y + b.y) / 2)
  }

  /// The receiver's own speed of `sample`, nil when it has none: a speed under the
  /// standing noise is a standing receiver's (zero), and a faster one counts only with its
  /// course. Where the receiver sent no speed (an RMC with empty speed and course fields, a
  /// GGA), gpsd fills in one it computed from the last two positions and reports it with no
  /// course: that is the positions' noise (2-7 m/s for a walker whose fixes scatter 3-5 m),
  /// and, taken for the receiver's, it carried every zigzag of a noisy walk (3,156 m recorded
  /// of 1,196 m walked with 5 m of noise: Fixtures/truth/town-walk-5m-1.0ms-no-speeds).
  /// A source whose speeds are all its receiver's (a logger's GPX: speeds, no courses) says
  /// so with `courseLessSpeedsAreComputed`.
  static func receiverSpeed(_ sample: RouteSample, configuration: RouteSampleFilterConfiguration) -> Double? {
    guard let speed = sample.speed else { return nil }
    if speed < configuration.standingSpeedNoise { return 0 }
    return sample.course == nil && configuration.courseLessSpeedsAreComputed ? nil : speed
  }

  /// Whether `candidate` is where the receiver's speeds and courses since the reference
  /// put it, far enough to tell from its `error`: the displacement they add up to is at
  /// least the error and the position lies within `tolerance` of it. A walker reports a
  /// speed a parked receiver's noise can reach, but only the walker's positions follow its
  /// velocity out of the error's reach.
  func movedAsVelocitySays(_ candidate: RouteSample, error: Double, tolerance: Double) -> Bool {
    guard let integral = velocityIntegral, let position = run.offset(of: candidate.coordinate) else { return false }
    let said = (integral.x * integral.x + integral.y * integral.y).squareRoot()
    let dx = position.x - integral.x
    let dy = position.y - integral.y
    return said >= error && (dx * dx + dy * dy).squareRoot() <= tolerance * said
  }

  /// A speed along a course, as metres a second east and north; nil for a moving fix
  /// without a course.
  private static func velocity(_ speed: Double, _ course: Double?) -> FlatPoint? {
    guard speed > 0 else { return FlatPoint(x: 0, y: 0) }
    guard let course else { return nil }
    let radians = course * .pi / 180
    return FlatPoint(x: speed * Trigonometry.sin(radians), y: speed * Trigonometry.cos(radians))
  }
}
