import FoundationEssentials

/// The distance a receiver's reported speeds say it went from one fix to the next: what
/// `MotionEvidence` adds to its speed integral. Two things keep a walker's speeds from
/// carrying more than the walk:
/// - a reported speed is the length of the receiver's velocity estimate, and noise on each
///   axis lengthens it, by σ²/2v on average at speed v (σ on each axis): a phone's 0.5 m/s
///   at a 1.4 m/s walk, 6 %. Each speed counts less that bias, with σ² measured from the
///   speeds themselves (`noise`), and at a walk or a creep less `speedNoiseDoubt` σ too;
/// - a slow speed (under `stationarySpeed`) counts only once a neighbouring fix confirms
///   it: it moves too (at least `standingSpeedNoise`) on a course within
///   `speedConfirmationAngle` of it. A walker waiting at a crossing reports 0.5-1 m/s on a
///   new course each second; a walker or a creeping car keeps its course from one fix to
///   the next. A speed the next fix confirms counts when that fix comes, so a move is judged
///   on it one fix later (a car pulling away: its first moving fix).
/// Pure: time comes from the fixes.
struct SpeedDistance: Sendable, Hashable {
  /// The receiver's speed noise σ² (m²/s²), a running mean; nil until measured. Kept across
  /// references and stretches: it is the receiver's.
  private(set) var noise: Double?
  /// The fix before the previous one: its reported speed and time, for the noise.
  private var earlier: Reading?
  /// The previous fix: its reported speed and time, whether its speed is confirmed, and,
  /// when not yet, its half of the step into it (metres), which counts if the next fix
  /// confirms it.
  private var previous: Reading?

  private struct Reading: Sendable, Hashable {
    var speed: Double
    var time: Date
    var confirmed = true
    var pending = 0.0
  }

  /// Forgets the fixes seen, keeping the noise unless `receiver` is false (a new shift); a
  /// fix without a speed does so too, as the count breaks there.
  mutating func reset(keepingReceiver receiver: Bool) {
    if !receiver { noise = nil }
    earlier = nil
    previous = nil
  }

  /// The metres a step of `interval` seconds carried, between a fix whose own speed and
  /// course were `before` and one whose own were `after` (a standing fix's speed is 0; a
  /// fix without a speed of its own has its neighbour's), the second reporting `reported`
  /// at `time`. Includes what the previous fix had pending once this one confirms it.
  mutating func step(
    interval: TimeInterval, before: (speed: Double, course: Double?), after: (speed: Double, course: Double?),
    reported: Double?, time: Date, configuration: RouteSampleFilterConfiguration
  ) -> Double {
    noteNoise(reported: reported, time: time, configuration: configuration)
    let agree = Self.agree(before, after, configuration: configuration)
    let fast = configuration.stationarySpeed
    var metres = 0.0
    let previousConfirmed = previous.map { $0.confirmed || agree } ?? (before.speed >= fast || agree)
    if previousConfirmed {
      metres += interval * unbiased(before.speed, configuration: configuration) / 2
      if let previous, !previous.confirmed { metres += previous.pending }
    }
    let half = interval * unbiased(after.speed, configuration: configuration) / 2
    let confirmed = after.speed >= fast || agree
    if confirmed { metres += half }
    if let reported {
      previous = Reading(speed: reported, time: time, confirmed: confirmed, pending: confirmed ? 0 : half)
    } else {
      reset(keepingReceiver: true)
    }
    return metres
  }

  /// Whether two neighbouring fixes confirm each other's movement: both move, on courses
  /// within `speedConfirmationAngle` of each other (or one without a course, which cannot
  /// tell).
  private static func agree(
    _ a: (speed: Double, course: Double?), _ b: (speed: Double, course: Double?),
    configuration: RouteSampleFilterConfiguration
  ) -> Bool {
    guard a.speed > 0, b.speed > 0 else { return false }
    guard let x = a.course, let y = b.course else { return true }
    return GeographicDistance.angleBetween(x, y) <= configuration.speedConfirmationAngle
  }

  /// `speed` less the bias the noise gives a velocity's length, to first order, and at a
  /// walk or a creep less `speedNoiseDoubt` of the noise.
  private func unbiased(_ speed: Double, configuration: RouteSampleFilterConfiguration) -> Double {
    guard speed > 0, let noise else { return speed }
    let slow = speed < configuration.speedNoiseMaximumSpeed
    let doubt = slow ? configuration.speedNoiseDoubt * noise.squareRoot() : 0
    return max(0, speed - noise / (2 * speed) - doubt)
  }

  /// Notes the second difference of three speeds in a row, evenly spaced at most
  /// `speedNoiseMaximumInterval` apart, all under `speedNoiseMaximumSpeed`: its
  /// square is 6σ² on average, and a steady acceleration does not enter it (a first
  /// difference counted a car's pulling away as noise).
  private mutating func noteNoise(reported: Double?, time: Date, configuration: RouteSampleFilterConfiguration) {
    defer { earlier = previous }
    guard let reported, let previous, let earlier else { return }
    let first = previous.time.timeIntervalSince(earlier.time)
    let second = time.timeIntervalSince(previous.time)
    let speeds = [earlier.speed, previous.speed, reported]
    guard first > 0, second > 0, max(first, second) <= configuration.speedNoiseMaximumInterval,
      abs(first - second) <= 0.1 * first,
      speeds.allSatisfy({ $0 < configuration.speedNoiseMaximumSpeed })
    else { return }
    let difference = reported - 2 * previous.speed + earlier.speed
    let variance = difference * difference / 6
    noise = noise.map { $0 + configuration.speedNoiseWeight * (variance - $0) } ?? variance
  }
}
