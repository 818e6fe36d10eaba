import FoundationEssentials

/// Why a fix was not retained. Each reason is counted, so status can say what capture did.
public enum SampleRejection: String, Sendable, Hashable, Codable, CaseIterable {
  case noFix = "no_fix"
  case invalidCoordinate = "invalid_coordinate"
  case poorAccuracy = "poor_accuracy"
  case noAccuracyEstimate = "no_accuracy_estimate"
  case stale = "stale"
  case futureTime = "future_time"
  case outOfOrder = "out_of_order"
  case implausibleSpeed = "implausible_speed"
  case negligibleMovement = "negligible_movement"

  /// A sentence fragment a person reads in status output.
  public var explanation: String {
    switch self {
    case .noFix: "no 2D/3D fix"
    case .invalidCoordinate: "invalid coordinate or time"
    case .poorAccuracy: "accuracy worse than the limit"
    case .noAccuracyEstimate: "no error estimate"
    case .stale: "too old when it arrived"
    case .futureTime: "dated ahead of the receiver's recent fixes"
    case .outOfOrder: "timestamp repeats or precedes the last sample"
    case .implausibleSpeed: "implausible speed"
    case .negligibleMovement: "negligible movement"
    }
  }
}

/// The capture rules, applied once, when a fix arrives. The calculator never re-judges.
public struct RouteSampleFilter: Sendable {
  public struct Configuration: Sendable, Hashable {
    /// A fix whose horizontal error is worse than this is rejected.
    public var maximumHorizontalAccuracy: Double = 100
    /// A fix older than this when it arrives is rejected.
    public var maximumAge: TimeInterval = 10
    /// Speed implied from the last retained sample of the same session above which a fix
    /// is implausible.
    public var maximumImpliedSpeed: Double = 70
    /// Movement under this from the last retained sample is negligible.
    public var minimumMovement: Double = 5
    /// A receiver reporting less than this speed (m/s), or, when it reports none, whose
    /// implied speed since the last retained sample is less than this, is treated as
    /// standing still ... Parked real receivers report speed noise of 1-1.7 m/s
    /// (haicom-305N, navisys-gr701w in gpsd's regression logs), hence 2 m/s.
    public var stationarySpeed: Double = 2.0
    /// ... and its movement is negligible while it stays within this multiple of the larger
    /// of its own error estimate and the last retained sample's: a parked receiver's
    /// position wanders by more than `minimumMovement`, and that wander is not driving. Two
    /// fixes each within their 95 % radius r of the truth can be up to 2r apart, hence 2.
    /// Holding a moving vehicle costs almost nothing: the next kept sample is measured
    /// from the last kept one, so only the bends of the held stretch are cut.
    public var stationaryErrorFraction: Double = 2.0
    /// Beyond this silence since the last retained sample the speed rule does not apply:
    /// the measurement sees a gap there anyway, so the rule must not lock capture out.
    public var maximumSampleInterval: TimeInterval = 120
    /// After this many consecutive implausible fixes that agree with each other, the last
    /// retained sample is the outlier and the latest fix is accepted.
    public var implausibleStreakToTrust: Int = 3

    public init() {}
  }

  public enum Verdict: Sendable, Hashable {
    case accepted(RouteSample)
    case rejected(SampleRejection)
  }

  public var configuration: Configuration
  /// The last sample retained for the shift (any session).
  public private(set) var lastRetained: RouteSample?
  /// Implausible fixes in a row that agree with each other, newest last.
  private var implausibleStreak: [RouteSample] = []

  public init(configuration: Configuration = .init(), lastRetained: RouteSample? = nil) {
    self.configuration = configuration
    self.lastRetained = lastRetained
  }

  /// Starts judging against `sample` (the store's last row of the shift, or nil for a new
  /// shift). Called when a shift starts and when a save failed, so that the filter never
  /// compares against a sample that was not kept.
  public mutating func reset(lastRetained sample: RouteSample?) {
    lastRetained = sample
    implausibleStreak = []
  }

  /// Judges `fix` for the capture session `session`; an accepted fix becomes the last
  /// retained sample.
  public mutating func judge(_ fix: FixCandidate, session: CaptureSessionID?) -> Verdict {
    guard fix.mode.hasFix else { return .rejected(.noFix) }
    guard let time = fix.time, time.timeIntervalSince1970.isFinite, fix.coordinate.isValid
    else { return .rejected(.invalidCoordinate) }
    guard let accuracy = fix.horizontalAccuracy else { return .rejected(.noAccuracyEstimate) }
    guard accuracy <= configuration.maximumHorizontalAccuracy else {
      return .rejected(.poorAccuracy)
    }
    if let age = fix.age, age > configuration.maximumAge { return .rejected(.stale) }
    // A fix dated ahead of what the receiver's recent fixes allow is a wrong date, not a
    // fresh fix: kept, it would make every true fix after it look out of order.
    if let age = fix.age, age < -configuration.maximumAge { return .rejected(.futureTime) }

    let candidate = RouteSample(
      timestamp: time, coordinate: fix.coordinate, horizontalAccuracy: accuracy,
      speed: fix.speed.flatMap { $0.isFinite && $0 >= 0 ? $0 : nil },
      course: fix.course.flatMap { $0.isFinite ? GeographicDistance.normalizedDegrees($0) : nil },
      captureSessionID: session)

    guard let last = lastRetained else { return accept(candidate) }
    guard time > last.timestamp else { return .rejected(.outOfOrder) }

    let distance = GeographicDistance.metres(from: last.coordinate, to: candidate.coordinate)
    let interval = time.timeIntervalSince(last.timestamp)
    let sameSession = last.captureSessionID == session
    let continuous = sameSession && interval <= configuration.maximumSampleInterval

    if continuous, distance / interval > configuration.maximumImpliedSpeed {
      if trustsStreak(ending: candidate) { return accept(candidate) }
      return .rejected(.implausibleSpeed)
    }
    implausibleStreak = []

    // The first fix of a new session is kept wherever it is: it anchors the session, and
    // the measurement sees a gap before it anyway.
    guard sameSession else { return accept(candidate) }
    if distance < configuration.minimumMovement { return .rejected(.negligibleMovement) }
    if isStandingStill(candidate, distance: distance, interval: interval),
      distance < configuration.stationaryErrorFraction * max(accuracy, last.horizontalAccuracy)
    {
      return .rejected(.negligibleMovement)
    }
    return accept(candidate)
  }

  /// Whether the fix says the receiver is still: its reported speed, or when it reports
  /// none, the speed implied since the last retained sample. The hold applies however long
  /// the receiver has been held (a parked car is held for hours), within one session.
  private func isStandingStill(_ candidate: RouteSample, distance: Double, interval: TimeInterval)
    -> Bool
  {
    if let speed = candidate.speed { return speed < configuration.stationarySpeed }
    return distance / interval < configuration.stationarySpeed
  }

  private mutating func accept(_ sample: RouteSample) -> Verdict {
    lastRetained = sample
    implausibleStreak = []
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
