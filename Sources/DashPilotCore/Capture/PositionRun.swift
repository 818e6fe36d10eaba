import FoundationEssentials

/// Whether the fixes since the last retained sample (the reference) move together, step
/// after step: each step's velocity (its displacement over the time it took) agrees with
/// the step's before it, and no fix-mode change lies between them. Positions that outrun the receiver's own speeds are
/// believed only on such sustained agreement (a receiver whose speed output is wrong, a
/// drive out of a tunnel the speeds either side of it cannot carry), never on one jump: a
/// cold start settling, a reflected signal and noise step in directions and at paces that
/// disagree with each other. Pure: time comes from the fixes.
struct PositionRun: Sendable, Hashable {
  /// Metres east and north of the reference.
  private var frame: LocalFlatFrame?
  /// When the first fix after the reference came: the run's agreement is timed from it, so
  /// a silence before it (a tunnel) is not agreement.
  private var firstTime: Date?
  /// Where the run began and where it is, metres east and north of the reference.
  private var start = FlatPoint(x: 0, y: 0)
  private var last = FlatPoint(x: 0, y: 0)
  private var lastTime = Date.distantPast
  /// The velocity of the last step, metres a second east and north.
  private var velocity: FlatPoint?
  /// Steps that agreed, and whether every step so far did.
  private(set) var steps = 0
  private(set) var agrees = false
  /// The courses the run's fixes reported, as unit vectors east and north, and the fastest
  /// speed they reported.
  private var courses: [FlatPoint] = []
  private var peakSpeed = 0.0

  /// Starts a run at `sample`, the new reference (or none).
  mutating func reset(at sample: RouteSample?) {
    self = PositionRun()
    guard let sample else { return }
    frame = LocalFlatFrame(reference: sample.coordinate)
    lastTime = sample.timestamp
    agrees = true
  }

  /// The receiver re-solved (its fix mode changed): no run spans a re-solution.
  mutating func breakOff() { agrees = false }

  /// The vehicle moves off: `moving` is its first fix that says so after fixes that said
  /// it stood still. While it is still within `wander` metres of the reference (the noise
  /// a standing receiver wanders in), the run of movement begins there: the standing
  /// receiver's wander, and the step its position may take when it starts to move (a
  /// receiver that pins its position while standing lets go of it), are not movement to
  /// agree with. Further away, the step to it is part of the run like any other: a jump
  /// is never skipped. Returns whether the run began afresh.
  mutating func moveOff(at moving: RouteSample, within wander: Double) -> Bool {
    guard let frame else { return false }
    let point = frame.project(moving.coordinate)
    guard Self.length(point) <= wander else { return false }
    start = point
    last = point
    courses = []
    peakSpeed = 0
    lastTime = moving.timestamp
    velocity = nil
    firstTime = moving.timestamp
    steps = 0
    agrees = true
    return true
  }

  /// Where `coordinate` is, in metres east and north of the reference.
  func offset(of coordinate: GeoCoordinate) -> FlatPoint? { frame?.project(coordinate) }

  /// Adds the next fix seen. A step whose velocity differs from the step's before it by
  /// more than `tolerance` of the faster of the two, plus `noise` (metres a second, for
  /// each second of the step: what a position's error alone does to a one-second step),
  /// ends the agreement until the next reference:
  /// a vehicle speeds up and turns smoothly, a position estimate that jumps or settles does
  /// not.
  mutating func add(_ sample: RouteSample, tolerance: Double, noise: Double) {
    guard agrees, let frame else { return }
    let interval = sample.timestamp.timeIntervalSince(lastTime)
    guard interval > 0 else { return }
    let point = frame.project(sample.coordinate)
    let step = FlatPoint(x: (point.x - last.x) / interval, y: (point.y - last.y) / interval)
    if let velocity {
      let deviation = Self.length(FlatPoint(x: step.x - velocity.x, y: step.y - velocity.y))
      // What a second's noise, or a longer step's speeding up and slowing down unseen (a
      // tunnel), may change.
      let allowance = noise * max(1, interval)
      guard deviation <= tolerance * max(Self.length(step), Self.length(velocity)) + allowance else {
        agrees = false
        return
      }
    }
    velocity = step
    peakSpeed = max(peakSpeed, sample.speed ?? 0)
    if let course = sample.course {
      let radians = course * .pi / 180
      courses.append(FlatPoint(x: Trigonometry.sin(radians), y: Trigonometry.cos(radians)))
    }
    if firstTime == nil { firstTime = sample.timestamp }
    steps += 1
    last = point
    lastTime = sample.timestamp
  }

  private static func length(_ v: FlatPoint) -> Double { (v.x * v.x + v.y * v.y).squareRoot() }

  /// Whether the run is sustained agreement that the latest fix, `displacement` metres from
  /// the reference, moved there: enough agreeing steps over enough time, a displacement
  /// beyond what the fixes' `error` could put there, and the receiver's own courses
  /// pointing the way the run went (`coursesAgree`).
  func isSustained(displacement: Double, error: Double, configuration: RouteSampleFilterConfiguration) -> Bool {
    agrees && steps >= configuration.agreementFixes
      && lastTime.timeIntervalSince(firstTime ?? lastTime) >= configuration.agreementSeconds
      && displacement >= configuration.stationaryErrorFraction * error
      && coursesAgree(configuration: configuration)
  }

  /// Whether the courses the run's fixes reported say it went the way its positions did: at
  /// least `agreementFixes` of them, each within `agreementTolerance` of the run's direction
  /// (as unit vectors: 29° for 0.5). A receiver whose speed output is wrong still reports
  /// the course it moves on (bundg_zeus_9 sails on 223-243° while its speeds say 0-0.3
  /// m/s); a solution settling after a cold start steps tens of metres a second, each step
  /// agreeing with the last, while its courses, a standing receiver's, point anywhere (a
  /// parked u-blox's settling recorded 277 m: Fixtures/truth/ublox-cold-start-parked).
  /// Every course, not their mean: four courses drawn at random have a mean within 29° of
  /// any direction one time in twenty, all four one time in 1,500. Asked only of a run
  /// whose speeds all say standing (under `stationarySpeed`): a vehicle whose speeds say it
  /// drives has courses that bend with the road through a run.
  private func coursesAgree(configuration: RouteSampleFilterConfiguration) -> Bool {
    // A receiver that reports no courses at all (a logger's track) says nothing either way.
    if peakSpeed >= configuration.stationarySpeed || courses.isEmpty { return true }
    let direction = FlatPoint(x: last.x - start.x, y: last.y - start.y)
    let length = Self.length(direction)
    guard courses.count >= configuration.agreementFixes, length > 0 else { return false }
    let way = FlatPoint(x: direction.x / length, y: direction.y / length)
    return courses.allSatisfy {
      Self.length(FlatPoint(x: $0.x - way.x, y: $0.y - way.y)) <= configuration.agreementTolerance
    }
  }
}
